// WebContainer is an upgrade, never a wait (docs/architecture.md, "Runtime"): it boots at most once
// per page, in the background, with a timeout. Nothing awaits this object; workspaces open on the
// browser runtime and move to the container when `status` turns "ready".
//
// The one-boot rule: `boot()` is never called while an earlier call is pending (the real
// WebContainer refuses a second instance) nor after a container was given up, unless that late
// container has been torn down. A failed or timed-out boot is not retried by itself; `retry()`
// (the status bar's "Retry") waits on the pending boot again or, when it has settled, boots anew.
import { Emitter, errorMessage, type Disposable } from "../base";
import { BootTimeoutError } from "./boot-timeout";
import type { FallbackReason } from "./types";

export type WebContainerStatus =
  /** Not tried on purpose: turned off in Settings or `?runtime=browser`. */
  | { state: "off"; reason: FallbackReason }
  /** May be tried; `start()` has not been called yet. */
  | { state: "idle" }
  | { state: "booting" }
  | { state: "ready" }
  /** Cannot run here, or did not boot. `canRetry` when another attempt could succeed. */
  | { state: "unavailable"; reason: FallbackReason; canRetry: boolean };

export interface WebContainerBootOptions<C> {
  /** Boots the container (the real one: configureAPIKey, then WebContainer.boot). */
  boot: () => Promise<C>;
  /** Releases a container (WebContainer's teardown). */
  teardown: (container: C) => void;
  timeoutMs: number;
  /** Why it is never tried in this page (off, not isolated, unsupported browser); undefined: try. */
  blocked?: FallbackReason;
}

export class WebContainerBoot<C> implements Disposable {
  private current: WebContainerStatus;
  private readonly changed = new Emitter<WebContainerStatus>();
  /** The boot() call in flight, if any (at most one). */
  private pending: Promise<C> | undefined;
  private container: C | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(private readonly options: WebContainerBootOptions<C>) {
    const blocked = options.blocked;
    if (!blocked) this.current = { state: "idle" };
    else if (blocked.kind === "forced" || blocked.kind === "disabled") this.current = { state: "off", reason: blocked };
    else this.current = { state: "unavailable", reason: blocked, canRetry: false };
  }

  get status(): WebContainerStatus {
    return this.current;
  }

  /** The booted container, once `status` is "ready". */
  get ready(): C | undefined {
    return this.container;
  }

  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  onDidChange(listener: (status: WebContainerStatus) => void): Disposable {
    return this.changed.event(listener);
  }

  /** Starts the background boot if it may be tried and was not yet; otherwise does nothing. */
  start(): void {
    if (this.current.state === "idle") this.arm();
  }

  /** After a timeout or failure: waits on the boot still pending, or boots again once it settled. */
  retry(): void {
    if (this.current.state === "unavailable" && this.current.canRetry) this.arm();
  }

  private arm(): void {
    if (this.disposed) return;
    this.set({ state: "booting" });
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.current.state === "booting") {
        this.set({ state: "unavailable", reason: { kind: "boot-timeout", timeoutMs: this.options.timeoutMs }, canRetry: true });
      }
    }, this.options.timeoutMs);
    if (this.pending) return; // still in flight from an earlier attempt: wait on it again, never boot twice
    let booting: Promise<C>;
    try {
      booting = this.options.boot();
    } catch (error) {
      booting = Promise.reject(error);
    }
    this.pending = booting;
    booting.then(
      (container) => {
        this.pending = undefined;
        if (this.current.state === "booting" && !this.disposed) {
          this.clearTimer();
          this.container = container;
          this.set({ state: "ready" });
        } else {
          // Given up on (timed out, turned off, page closing): one container per page, so release it.
          this.release(container);
        }
      },
      (error: unknown) => {
        this.pending = undefined;
        // A boot that already timed out may still fail with the real cause (a refused key, a
        // blocked frame): that says more than "did not start in time", so it replaces it.
        const lateAfterTimeout = this.current.state === "unavailable" && this.current.reason.kind === "boot-timeout";
        if (this.disposed || (this.current.state !== "booting" && !lateAfterTimeout)) return;
        this.clearTimer();
        const message = error instanceof BootTimeoutError ? error.message : errorMessage(error);
        this.set({ state: "unavailable", reason: { kind: "boot-failed", message }, canRetry: true });
      },
    );
  }

  /**
   * The ready container stopped answering (a health check failed): it is torn down and the status
   * says why; Retry boots a new one (with the API key already applied: see webcontainer-licence.ts).
   */
  lost(container: C, message: string): void {
    if (this.disposed || this.container !== container) return;
    this.container = undefined;
    this.release(container);
    this.set({ state: "unavailable", reason: { kind: "lost", message }, canRetry: true });
  }

  private release(container: C): void {
    try {
      this.options.teardown(container);
    } catch {
      // A container that fails to tear down is gone from our side either way.
    }
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private set(status: WebContainerStatus): void {
    this.current = status;
    this.changed.fire(status);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clearTimer();
    if (this.container) this.release(this.container);
    this.container = undefined;
    this.changed.dispose();
  }
}
