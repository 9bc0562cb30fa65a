/**
 * Runs async work one piece at a time, in the order it was given; a failed piece does not stop the
 * ones after it. Stores whose change is "read the current value, write the next" go through one, so
 * two quick changes cannot both start from the same value and lose the first.
 */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
