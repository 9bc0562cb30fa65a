// The browser runtime's interactive shell for xterm: reads raw keystrokes, edits a line (history,
// completion, word and line kills), runs it with just-bash and writes ANSI output. The working
// folder, environment, aliases and last exit status ($?) carry over from one command to the next,
// like a real shell session (each line runs in a fresh just-bash interpreter).
import { getCommandNames, type CustomCommand } from "just-bash";
import { Emitter, errorMessage, type Disposable } from "../../base";
import type { Shell } from "../types";
import { WORKSPACE_MOUNT, type BashHost } from "./bash-host";
import { complete } from "./completion";
import { historyCommand } from "./history-command";
import { KeyReader, type Key } from "./key-reader";
import { LineEditor } from "./line-editor";
import { missingCommandNames } from "./missing-commands";
import { COLORS, columns, textWidth, toCrlf } from "./terminal-text";
import { CookedInput, type ProgramTerminal, type TerminalSession } from "./terminal-input";

/** Commands the browser runtime adds to just-bash's (for completion). */
const ADDED_COMMANDS = ["zip", "unzip", "curl"];
const SHELL_BUILTINS = ["cd", "export", "unset", "alias", "unalias", "source", "exit", "history", "type", "set", "read"];
const ENABLE_BRACKETED_PASTE = "\x1b[?2004h";
const DISABLE_BRACKETED_PASTE = "\x1b[?2004l";
const CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J";
const BELL = "\x07";

export interface InteractiveShellOptions {
  /** A dim line printed before the first prompt. */
  banner?: string;
  onDispose?: () => void;
}

export class InteractiveShell implements Shell {
  private readonly output = new Emitter<string>();
  private readonly reader = new KeyReader();
  private readonly editor = new LineEditor();
  private readonly queue: Key[] = [];
  private readonly commands: string[];
  private readonly sessionCommands: CustomCommand[];
  private cols: number;
  private cwd = WORKSPACE_MOUNT;
  private env: Record<string, string> | undefined;
  /** The exit status of the last line, restored as `$?` for the next one. */
  private lastStatus = 0;
  /** Rows between the prompt's first row and the cursor, as last rendered. */
  private cursorRow = 0;
  private processing = false;
  private running: AbortController | undefined;
  /** While a foreground program reads the terminal: its cooked line (keys go there, not to the shell). */
  private cooked: CookedInput | undefined;
  private disposed = false;
  private startScheduled = false;
  /** Keys wait until the banner and first prompt are out. */
  private started = false;
  private lastWritten = "";
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly host: BashHost,
    size: { cols: number; rows: number },
    private readonly options: InteractiveShellOptions = {},
  ) {
    this.cols = Math.max(10, size.cols);
    this.commands = [...getCommandNames(), ...ADDED_COMMANDS, ...SHELL_BUILTINS, ...missingCommandNames()];
    this.sessionCommands = [historyCommand(this.editor)];
  }

  /** Listeners get the banner and first prompt on the next microtask, so subscribe right away. */
  onData(listener: (data: string) => void): Disposable {
    const subscription = this.output.event(listener);
    if (!this.startScheduled) {
      this.startScheduled = true;
      queueMicrotask(() => this.start());
    }
    return subscription;
  }

  /** The working folder as a shell path ("/workspace/src"). */
  get currentDirectory(): string {
    return this.cwd;
  }

  write(data: string): void {
    if (this.disposed) return;
    for (const key of this.reader.read(data)) {
      if (key.type === "key" && key.name === "interrupt" && this.running) {
        // Ctrl-C while a command runs: stop it and drop the type-ahead (a long paste stops too).
        this.queue.length = 0;
        this.running.abort();
        continue;
      }
      if (this.cooked) {
        this.cooked.key(key);
        continue;
      }
      this.queue.push(key);
    }
    void this.drain();
  }

  /** At an empty prompt with nothing queued or running (the terminal may hand over to another shell). */
  get idle(): boolean {
    return this.started && !this.processing && this.queue.length === 0 && this.running === undefined && this.editor.text === "";
  }

  /** Resolves once every key written so far is handled and no command is running. */
  whenIdle(): Promise<void> {
    if (this.disposed || (!this.processing && this.queue.length === 0)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  resize(size: { cols: number; rows: number }): void {
    this.cols = Math.max(10, size.cols);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.running?.abort();
    this.queue.length = 0;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
    this.emit(DISABLE_BRACKETED_PASTE);
    this.output.dispose();
    this.options.onDispose?.();
  }

  private start(): void {
    if (this.disposed) return;
    this.started = true;
    let intro = ENABLE_BRACKETED_PASTE;
    if (this.options.banner) intro += `${COLORS.dim}${toCrlf(this.options.banner)}${COLORS.reset}\r\n`;
    this.emit(intro);
    this.render();
    void this.drain();
  }

  private emit(data: string): void {
    if (data === "") return;
    this.lastWritten = data;
    this.output.fire(data);
  }

  private async drain(): Promise<void> {
    if (this.processing || !this.started) return;
    this.processing = true;
    try {
      while (this.queue.length > 0 && !this.disposed) await this.handle(this.queue.shift()!);
    } catch (error) {
      this.emit(`\r\n${COLORS.red}shell error: ${errorMessage(error)}${COLORS.reset}\r\n`);
      this.cursorRow = 0;
      this.render();
    } finally {
      this.processing = false;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private async handle(key: Key): Promise<void> {
    const editor = this.editor;
    if (key.type === "text") {
      editor.insert(key.text);
      this.render();
      return;
    }
    switch (key.name) {
      case "enter":
        return this.runLine();
      case "tab":
        return this.completeWord();
      case "interrupt":
        this.moveToEnd();
        this.emit("^C\r\n");
        editor.discard();
        this.cursorRow = 0;
        this.render();
        return;
      case "clear-screen":
        this.emit(CLEAR_SCREEN);
        this.cursorRow = 0;
        this.render();
        return;
      case "eof":
        if (!editor.deleteForward()) this.emit(BELL);
        break;
      case "backspace":
        if (!editor.backspace()) this.emit(BELL);
        break;
      case "delete":
        editor.deleteForward();
        break;
      case "left":
        editor.left();
        break;
      case "right":
        editor.right();
        break;
      case "home":
        editor.home();
        break;
      case "end":
        editor.end();
        break;
      case "word-left":
        editor.wordLeft();
        break;
      case "word-right":
        editor.wordRight();
        break;
      case "kill-line-start":
        editor.killToStart();
        break;
      case "kill-line-end":
        editor.killToEnd();
        break;
      case "kill-word-back":
        editor.killWordBack();
        break;
      case "up":
        if (!editor.historyUp()) return;
        break;
      case "down":
        if (!editor.historyDown()) return;
        break;
    }
    this.render();
  }

  // ---- running commands ---------------------------------------------------------------------

  private async runLine(): Promise<void> {
    this.moveToEnd();
    this.emit("\r\n");
    this.cursorRow = 0;
    const line = this.editor.accept();
    if (line.trim() !== "") await this.runCommand(line);
    this.render();
  }

  private async runCommand(line: string): Promise<void> {
    const fs = this.host.fsFor("terminal");
    const cwdStat = await fs.stat(this.cwd).catch(() => undefined);
    if (!cwdStat?.isDirectory) {
      this.emit(`${COLORS.yellow}The folder ${this.displayCwd()} no longer exists; back to ~.${COLORS.reset}\r\n`);
      this.cwd = WORKSPACE_MOUNT;
      if (this.env) this.env = { ...this.env, PWD: WORKSPACE_MOUNT };
    }
    const controller = new AbortController();
    this.running = controller;
    try {
      const result = await this.host.run(this.withSessionState(line), {
        cwd: this.cwd,
        env: this.env,
        replaceEnv: this.env !== undefined,
        source: "terminal",
        signal: controller.signal,
        commands: this.sessionCommands,
        terminal: this.programTerminal(),
        // Output shows as each command writes it, stderr in red, in the order it was written.
        onOutput: (chunk) =>
          this.emit(chunk.stream === "stdout" ? toCrlf(chunk.text) : `${COLORS.red}${toCrlf(chunk.text)}${COLORS.reset}`),
      });
      this.lastStatus = result.exitCode;
      if (result.env) {
        this.env = result.env;
        if (result.env.PWD?.startsWith("/")) this.cwd = result.env.PWD;
      }
      if (result.aborted) this.emit(`${this.atLineStart() ? "" : "\r\n"}^C`);
      if (!this.atLineStart()) this.emit("\r\n");
    } finally {
      this.running = undefined;
      this.cooked = undefined;
    }
  }

  /**
   * The terminal as a foreground program's standard input. From the program's first read the keys
   * go to a cooked line (echoed, edited, handed over at Enter; keys typed before that join it); when
   * the program ends, what it did not read goes back to the shell as type-ahead, as on a tty.
   */
  private programTerminal(): ProgramTerminal {
    return {
      open: (): TerminalSession => {
        let input: CookedInput | undefined;
        let closed = false;
        const start = () => {
          if (input || closed) return input;
          input = new CookedInput((text) => this.emit(text));
          this.cooked = input;
          for (const key of this.queue.splice(0)) input.key(key);
          return input;
        };
        return {
          read: () => start()?.read() ?? Promise.resolve(null),
          close: () => {
            if (closed) return;
            closed = true;
            if (!input) return;
            // Not the terminal's any more: the run was interrupted (Ctrl-C drops type-ahead).
            const current = this.cooked === input;
            if (current) this.cooked = undefined;
            const { lines, partial } = input.close();
            if (!current) return;
            const back = lines.flatMap((line): Key[] => [{ type: "text", text: line }, { type: "key", name: "enter" }]);
            if (partial !== "") back.push({ type: "text", text: partial });
            this.queue.unshift(...back.filter((key) => key.type !== "text" || key.text !== ""));
          },
        };
      },
    };
  }

  /**
   * Prefixes a line with what a fresh interpreter needs to continue the session: alias expansion
   * (interactive bash has it on; aliases themselves travel in the environment as BASH_ALIAS_*) and
   * the previous status as `$?`. On the same line, so `$LINENO` and error line numbers stay right;
   * just-bash expands aliases per command, so `shopt` takes effect for the rest of the line.
   */
  private withSessionState(line: string): string {
    const status = Number.isInteger(this.lastStatus) ? Math.min(255, Math.max(0, this.lastStatus)) : 1;
    return `shopt -s expand_aliases; (exit ${status}); ${line}`;
  }

  private atLineStart(): boolean {
    const plain = this.lastWritten.replace(/\x1b\[[0-9;]*m/g, "");
    return plain === "" || plain.endsWith("\n");
  }

  // ---- completion ---------------------------------------------------------------------------

  private async completeWord(): Promise<void> {
    // Nothing typed: listing the folder (or every command) on each Tab only buries the screen,
    // notably when someone presses Tab to leave the terminal. Bell, as bash does without a word.
    if (this.editor.beforeCursor.trim() === "") {
      this.emit(BELL);
      return;
    }
    const result = await complete(this.editor.beforeCursor, {
      fs: this.host.fsFor("terminal"),
      cwd: this.cwd,
      commands: this.commands,
    });
    if (result.insert) {
      this.editor.insert(result.insert);
      this.render();
      return;
    }
    if (result.list.length === 0) {
      this.emit(BELL);
      return;
    }
    this.moveToEnd();
    this.emit("\r\n" + columns(result.list, this.cols).join("\r\n") + "\r\n");
    this.cursorRow = 0;
    this.render();
  }

  // ---- rendering ----------------------------------------------------------------------------

  private displayCwd(): string {
    if (this.cwd === WORKSPACE_MOUNT) return "~";
    if (this.cwd.startsWith(WORKSPACE_MOUNT + "/")) return "~" + this.cwd.slice(WORKSPACE_MOUNT.length);
    return this.cwd;
  }

  private prompt(): string {
    return `${COLORS.bold}${COLORS.green}webcode${COLORS.reset}:${COLORS.bold}${COLORS.blue}${this.displayCwd()}${COLORS.reset}$ `;
  }

  /** Redraws prompt and line from the prompt's first row, then places the cursor. */
  private render(): void {
    if (this.disposed) return;
    const prompt = this.prompt();
    const promptWidth = textWidth(prompt);
    const text = this.editor.text;
    let out = this.cursorRow > 0 ? `\x1b[${this.cursorRow}A` : "";
    out += `\r\x1b[J${prompt}${text}`;
    const total = promptWidth + textWidth(text);
    const endRow = Math.floor(total / this.cols);
    // At an exact multiple the terminal waits to wrap; make the wrap happen so rows add up.
    if (total > 0 && total % this.cols === 0) out += "\r\n";
    const cursorCells = promptWidth + textWidth(this.editor.beforeCursor);
    const row = Math.floor(cursorCells / this.cols);
    const col = cursorCells % this.cols;
    if (endRow > row) out += `\x1b[${endRow - row}A`;
    out += "\r" + (col > 0 ? `\x1b[${col}C` : "");
    this.cursorRow = row;
    this.emit(out);
  }

  /** Puts the terminal cursor after the end of the line (before printing below it). */
  private moveToEnd(): void {
    const total = textWidth(this.prompt()) + textWidth(this.editor.text);
    const endRow = Math.floor(total / this.cols);
    const col = total % this.cols;
    let out = endRow > this.cursorRow ? `\x1b[${endRow - this.cursorRow}B` : "";
    out += "\r" + (col > 0 ? `\x1b[${col}C` : "");
    this.cursorRow = endRow;
    this.emit(out);
  }
}
