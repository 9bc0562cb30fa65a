// Modal questions any panel can ask: a choice between buttons (confirm delete, unsaved changes)
// or a name (new workspace). One way in (`ask`), answered by the Dialog component.
import { createStore, type StoreApi } from "zustand/vanilla";

export interface DialogButton {
  id: string;
  label: string;
  /** Styled as the main action; Enter picks it. */
  primary?: boolean;
  /** Styled as destructive (Delete). */
  danger?: boolean;
}

export interface ChoiceRequest {
  kind: "choice";
  title: string;
  message: string;
  buttons: DialogButton[];
  /** The button id Escape answers with. */
  cancelId: string;
}

export interface PromptRequest {
  kind: "prompt";
  title: string;
  label: string;
  initialValue: string;
  confirmLabel: string;
  /** Returns an error message for an invalid value, or undefined. */
  validate?: (value: string) => string | undefined;
  /** A password field: the value is not shown. */
  secret?: boolean;
}

export type DialogRequest = ChoiceRequest | PromptRequest;

interface OpenDialog {
  id: number;
  request: DialogRequest;
  resolve: (answer: string | undefined) => void;
}

export interface DialogState {
  current?: OpenDialog;
  queue: OpenDialog[];
}

export class Dialogs {
  readonly store: StoreApi<DialogState> = createStore<DialogState>(() => ({ queue: [] }));
  private nextId = 1;

  /** Resolves with the chosen button id (choice) or the entered value (prompt); undefined = cancelled. */
  ask(request: DialogRequest): Promise<string | undefined> {
    return new Promise((resolve) => {
      const dialog: OpenDialog = { id: this.nextId++, request, resolve };
      const state = this.store.getState();
      if (state.current) this.store.setState({ queue: [...state.queue, dialog] });
      else this.store.setState({ current: dialog });
    });
  }

  async confirm(title: string, message: string, confirmLabel: string, options: { danger?: boolean } = {}): Promise<boolean> {
    const answer = await this.ask({
      kind: "choice",
      title,
      message,
      buttons: [
        { id: "cancel", label: "Cancel" },
        { id: "confirm", label: confirmLabel, primary: true, danger: options.danger },
      ],
      cancelId: "cancel",
    });
    return answer === "confirm";
  }

  prompt(
    title: string,
    label: string,
    options: { initialValue?: string; confirmLabel?: string; validate?: (value: string) => string | undefined; secret?: boolean } = {},
  ): Promise<string | undefined> {
    return this.ask({
      kind: "prompt",
      title,
      label,
      initialValue: options.initialValue ?? "",
      confirmLabel: options.confirmLabel ?? "OK",
      validate: options.validate,
      ...(options.secret && { secret: true }),
    });
  }

  /** Answers the open dialog and shows the next queued one. */
  answer(id: number, value: string | undefined): void {
    const { current, queue } = this.store.getState();
    if (!current || current.id !== id) return;
    const [next, ...rest] = queue;
    this.store.setState({ current: next, queue: rest });
    current.resolve(value);
  }

  /** Cancels everything (the workspace is closing). */
  dispose(): void {
    const { current, queue } = this.store.getState();
    this.store.setState({ current: undefined, queue: [] });
    for (const dialog of [current, ...queue]) dialog?.resolve(undefined);
  }
}
