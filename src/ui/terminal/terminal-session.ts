// Connects one xterm instance to one runtime shell: keystrokes in, output out, size kept in step
// with the panel. Everything it creates is disposed together.
import { DisposableStore, toDisposable, type Disposable } from "../../base";
import type { Runtime, Shell } from "../../runtime";

/** The parts of xterm this needs (an interface, so the wiring can be tested without a DOM). */
export interface TerminalView extends Disposable {
  readonly cols: number;
  readonly rows: number;
  write(data: string): void;
  onData(listener: (data: string) => void): Disposable;
  onResize(listener: (size: { cols: number; rows: number }) => void): Disposable;
}

export class TerminalSession implements Disposable {
  private readonly disposables = new DisposableStore();
  readonly shell: Shell;

  constructor(runtime: Pick<Runtime, "openShell">, view: TerminalView) {
    this.shell = runtime.openShell({ cols: view.cols, rows: view.rows });
    this.disposables.add(this.shell);
    this.disposables.add(view.onData((data) => this.shell.write(data)));
    this.disposables.add(this.shell.onData((data) => view.write(data)));
    this.disposables.add(view.onResize((size) => this.shell.resize(size)));
    this.disposables.add(toDisposable(() => view.dispose()));
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
