// A React error boundary: a part, panel or the whole app that throws while rendering (bad data from
// a share link or a model, or a bug) is replaced by a notice with the error instead of unmounting.
import { Component, type ErrorInfo, type ReactNode } from "react";
import { errorMessage } from "../../base";

export interface ErrorBoundaryProps {
  children?: ReactNode;
  /** Replaces the default notice; `retry` renders the children again. */
  fallback?(error: unknown, retry: () => void): ReactNode;
  /** The notice's heading (default "This part could not be shown"). */
  title?: string;
  /** Told about the error once it is caught (the console gets it from React either way). */
  onError?(error: unknown, info: ErrorInfo): void;
}

interface ErrorBoundaryState {
  failed: boolean;
  error: unknown;
}

export const DEFAULT_BOUNDARY_TITLE = "This part could not be shown";

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false, error: undefined };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { failed: true, error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  private readonly retry = () => this.setState({ failed: false, error: undefined });

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    if (this.props.fallback) return this.props.fallback(this.state.error, this.retry);
    return (
      <div className="error-boundary" role="alert">
        <p className="error-boundary-title">{this.props.title ?? DEFAULT_BOUNDARY_TITLE}</p>
        <p className="error-boundary-detail">{describeError(this.state.error)}</p>
        <button type="button" className="link-button" onClick={this.retry}>
          Try again
        </button>
      </div>
    );
  }
}

/** The error as one line of text, whatever was thrown (never throws itself). */
function describeError(error: unknown): string {
  try {
    const text = errorMessage(error) || "Unknown error.";
    return text.length > 500 ? `${text.slice(0, 500)}…` : text;
  } catch {
    return "Unknown error.";
  }
}
