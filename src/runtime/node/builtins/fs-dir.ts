// fs.opendir's Dir: the folder's entries (listed when it is opened) read one at a time, by
// readSync/read (callback or promise) or `for await`, which closes it at the end as Node's does.

interface DirEntry {
  name: string;
}

function closedError(): Error {
  return Object.assign(new Error("Directory handle was closed"), { code: "ERR_DIR_CLOSED" });
}

export class Dir<Entry extends DirEntry> {
  private index = 0;
  private closed = false;

  constructor(
    readonly path: string,
    private readonly entries: Entry[],
    private readonly later: (callback: () => void) => void,
  ) {}

  readSync(): Entry | null {
    if (this.closed) throw closedError();
    return this.entries[this.index++] ?? null;
  }

  read(): Promise<Entry | null>;
  read(callback: (error: Error | null, entry?: Entry | null) => void): void;
  read(callback?: (error: Error | null, entry?: Entry | null) => void): Promise<Entry | null> | void {
    if (!callback) return new Promise((resolve, reject) => this.read((error, entry) => (error ? reject(error) : resolve(entry ?? null))));
    let entry: Entry | null;
    try {
      entry = this.readSync();
    } catch (error) {
      this.later(() => callback(error as Error));
      return;
    }
    this.later(() => callback(null, entry));
  }

  closeSync(): void {
    if (this.closed) throw closedError();
    this.closed = true;
  }

  close(): Promise<void>;
  close(callback: (error: Error | null) => void): void;
  close(callback?: (error: Error | null) => void): Promise<void> | void {
    if (!callback) return new Promise((resolve, reject) => this.close((error) => (error ? reject(error) : resolve())));
    let failure: Error | null = null;
    try {
      this.closeSync();
    } catch (error) {
      failure = error as Error;
    }
    this.later(() => callback(failure));
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Entry> {
    try {
      for (let entry = this.readSync(); entry !== null; entry = this.readSync()) yield entry;
    } finally {
      if (!this.closed) this.closed = true;
    }
  }
}
