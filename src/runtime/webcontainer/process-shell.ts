// A Shell over a WebContainer process (jsh with a terminal): keystrokes go to its input, its
// output comes out of onData. The process starts asynchronously; input typed meanwhile is kept.
import { Emitter, errorMessage, type Disposable } from "../../base";
import type { Shell } from "../types";
import type { ProcessLike } from "./webcontainer-like";

export class ProcessShell implements Shell {
  private readonly output = new Emitter<string>();
  private process: ProcessLike | undefined;
  private writer: WritableStreamDefaultWriter<string> | undefined;
  private pendingInput: string[] = [];
  /** Output produced before anyone listened (the first prompt), replayed to the first listener. */
  private backlog = "";
  private size: { cols: number; rows: number };
  /** The process ended: nothing is written to it or resized any more (its input is gone). */
  private exited = false;
  private disposed = false;

  constructor(
    start: (size: { cols: number; rows: number }) => Promise<ProcessLike>,
    size: { cols: number; rows: number },
    private readonly onDispose?: () => void,
  ) {
    this.size = size;
    start(size).then(
      (process) => this.attach(process),
      (error: unknown) => this.emit(`\x1b[31mThe shell could not start: ${errorMessage(error)}\x1b[0m\r\n`),
    );
  }

  private attach(process: ProcessLike): void {
    if (this.disposed) {
      process.kill();
      return;
    }
    this.process = process;
    this.writer = process.input.getWriter();
    for (const data of this.pendingInput.splice(0)) void this.writer.write(data).catch(() => undefined);
    process.resize(this.size);
    void process.output
      .pipeTo(new WritableStream({ write: (chunk) => this.emit(chunk) }))
      .catch(() => undefined);
    void process.exit.then((code) => {
      this.exited = true;
      this.writer?.releaseLock();
      this.writer = undefined;
      if (!this.disposed) this.emit(`\r\n\x1b[2m[the shell exited with code ${code}; open a new terminal to continue]\x1b[0m\r\n`);
    });
  }

  private emit(data: string): void {
    if (this.disposed) return;
    if (this.output.listenerCount === 0) this.backlog += data;
    else this.output.fire(data);
  }

  onData(listener: (data: string) => void): Disposable {
    const subscription = this.output.event(listener);
    if (this.backlog) {
      const backlog = this.backlog;
      this.backlog = "";
      listener(backlog);
    }
    return subscription;
  }

  write(data: string): void {
    if (this.disposed || this.exited) return;
    if (this.writer) void this.writer.write(data).catch(() => undefined);
    else this.pendingInput.push(data);
  }

  resize(size: { cols: number; rows: number }): void {
    this.size = size;
    if (!this.exited) this.process?.resize(size);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (!this.exited) this.process?.kill();
    this.output.dispose();
    this.onDispose?.();
  }
}
