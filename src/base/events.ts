// A typed event emitter. Event names follow noun-then-verb: `part-updated`, `session-created`.
import { toDisposable, type Disposable } from "./disposable";

export type Listener<T> = (event: T) => void;

/** A single-event emitter. Listener errors are reported, never break the emitter. */
export class Emitter<T> implements Disposable {
  private listeners: Listener<T>[] = [];

  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.push(listener);
    return toDisposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };

  fire(event: T): void {
    for (const listener of this.listeners.slice()) {
      try {
        listener(event);
      } catch (error) {
        reportListenerError(error);
      }
    }
  }

  get listenerCount(): number {
    return this.listeners.length;
  }

  dispose(): void {
    this.listeners = [];
  }
}

/** A bus of named events: `bus.on("part-updated", fn)`, `bus.emit("part-updated", payload)`. */
export class EventBus<Events extends { [K in keyof Events]: unknown }> implements Disposable {
  private readonly emitters = new Map<keyof Events, Emitter<unknown>>();

  on<K extends keyof Events>(name: K, listener: Listener<Events[K]>): Disposable {
    let emitter = this.emitters.get(name);
    if (!emitter) {
      emitter = new Emitter<unknown>();
      this.emitters.set(name, emitter);
    }
    return emitter.event(listener as Listener<unknown>);
  }

  emit<K extends keyof Events>(name: K, event: Events[K]): void {
    this.emitters.get(name)?.fire(event);
  }

  listenerCount(name: keyof Events): number {
    return this.emitters.get(name)?.listenerCount ?? 0;
  }

  dispose(): void {
    for (const emitter of this.emitters.values()) emitter.dispose();
    this.emitters.clear();
  }
}

function reportListenerError(error: unknown): void {
  // A failing listener must not stop the others; surface it asynchronously like the DOM does.
  queueMicrotask(() => {
    throw error;
  });
}
