// The toast area's store: errors and notices any panel can raise (quota exceeded, invalid names,
// failed saves). View state only; nothing here is persisted.
import { createStore, type StoreApi } from "zustand/vanilla";
import { errorMessage, UserFacingError } from "../../base";

export type NotificationLevel = "error" | "warning" | "info";

export interface AppNotification {
  id: number;
  level: NotificationLevel;
  message: string;
  /** How many times the same message was raised while it was on screen. */
  count: number;
}

export interface NotificationState {
  items: AppNotification[];
}

/** Info notices fade on their own; warnings and errors stay until dismissed so none is missed. */
export const INFO_TIMEOUT_MS = 5000;
/** The oldest notices give way beyond this many, so a burst of errors cannot fill the screen. */
export const MAX_NOTIFICATIONS = 5;

export class Notifications {
  readonly store: StoreApi<NotificationState> = createStore<NotificationState>(() => ({ items: [] }));
  private nextId = 1;
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();

  // Called as a plain function: browsers throw "Illegal invocation" when setTimeout loses its `this`.
  constructor(
    private readonly schedule: (callback: () => void, ms: number) => ReturnType<typeof setTimeout> = (callback, ms) =>
      setTimeout(callback, ms),
  ) {}

  notify(level: NotificationLevel, message: string): number {
    const items = this.store.getState().items;
    const same = items.find((item) => item.level === level && item.message === message);
    if (same) {
      this.store.setState({ items: items.map((item) => (item === same ? { ...item, count: item.count + 1 } : item)) });
      return same.id;
    }
    const id = this.nextId++;
    const next = [...items, { id, level, message, count: 1 }];
    for (const dropped of next.splice(0, Math.max(0, next.length - MAX_NOTIFICATIONS))) this.clearTimer(dropped.id);
    this.store.setState({ items: next });
    if (level === "info") this.timers.set(id, this.schedule(() => this.dismiss(id), INFO_TIMEOUT_MS));
    return id;
  }

  /** Shows an error; messages written for the user are shown as they are, others get context. */
  error(error: unknown, context?: string): number {
    const message =
      error instanceof UserFacingError || !context ? errorMessage(error) : `${context}: ${errorMessage(error)}`;
    return this.notify("error", message);
  }

  info(message: string): number {
    return this.notify("info", message);
  }

  dismiss(id: number): void {
    this.clearTimer(id);
    this.store.setState({ items: this.store.getState().items.filter((item) => item.id !== id) });
  }

  dispose(): void {
    for (const id of [...this.timers.keys()]) this.clearTimer(id);
  }

  private clearTimer(id: number): void {
    const timer = this.timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(id);
  }
}
