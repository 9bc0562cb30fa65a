/**
 * Runs async work one piece at a time, in the order it was given; a failed piece does not stop the
 * ones after it. Stores whose change is "read the current value, write the next" go through one, so
 * two quick changes cannot both start from the same value and lose the first.
 */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();
  private running = 0;

  /** Whether work given earlier has not ended yet (new work would wait for it). */
  get busy(): boolean {
    return this.running > 0;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    const result = this.tail.then(work).finally(() => this.running--);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** One Serial per object (a workspace's files, a config store), made on first use. */
export class KeyedSerial<K extends object> {
  private readonly queues = new WeakMap<K, Serial>();

  for(key: K): Serial {
    let queue = this.queues.get(key);
    if (!queue) this.queues.set(key, (queue = new Serial()));
    return queue;
  }
}
