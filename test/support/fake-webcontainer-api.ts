// The e2e build's "@webcontainer/api" (vite.config.ts aliases it in `--mode e2e`): the real module
// boots from StackBlitz's servers, which tests cannot reach. A browser test picks how the boot
// behaves before the page loads, with an init script:
//   window.__webcodeFakeWebContainer = { boot: "hang" | "fail" | { delayMs: 2000 } }
// (default "hang", like a page without access to StackBlitz). Once booted, a small in-memory
// container runs `jsh`: `node -v`, `echo`, `pwd`, `ls` and `cat` over the mounted workspace, so a
// test can see where a command ran. `window.__webcodeFakeWebContainerLog` records the calls.
import { FakeWebContainer, type FakeProcess } from "./fake-webcontainer";

export const FAKE_NODE_VERSION = "v20.19.0-fake-webcontainer";

type BootMode = "hang" | "fail" | { delayMs: number };

interface FakeLog {
  boots: number;
  apiKey?: string;
  options?: unknown;
  commands: string[];
  tornDown: number;
}

declare global {
  interface Window {
    __webcodeFakeWebContainer?: { boot?: BootMode };
    __webcodeFakeWebContainerLog?: FakeLog;
  }
}

function log(): FakeLog {
  window.__webcodeFakeWebContainerLog ??= { boots: 0, commands: [], tornDown: 0 };
  return window.__webcodeFakeWebContainerLog;
}

/** Like the real API: after any WebContainer.boot call (even a failed one) the key can no longer be set. */
let bootCalled = false;

export function configureAPIKey(key: string): void {
  if (bootCalled) throw new Error("`configureAPIKey` should always be called before `WebContainer.boot`");
  log().apiKey = key;
}

let instance: Promise<BrowserContainer> | undefined;

/** Runs one command line of the fake jsh; returns its output and exit code. */
function runLine(container: FakeWebContainer, line: string): { output: string; code: number } {
  log().commands.push(line);
  const [name, ...args] = line.trim().split(/\s+/);
  switch (name) {
    case undefined:
    case "":
      return { output: "", code: 0 };
    case "node":
      if (args[0] === "-v" || args[0] === "--version") return { output: `${FAKE_NODE_VERSION}\r\n`, code: 0 };
      return { output: "fake node only answers -v\r\n", code: 1 };
    case "echo":
      return { output: `${args.join(" ")}\r\n`, code: 0 };
    case "pwd":
      return { output: "/home/workspace\r\n", code: 0 };
    case "ls":
      return {
        output: [...container.files.keys()].filter((p) => !p.includes("/")).sort().join("  ") + "\r\n",
        code: 0,
      };
    case "cat": {
      const text = container.text(args[0] ?? "");
      return text === undefined ? { output: `cat: ${args[0]}: No such file or directory\r\n`, code: 1 } : { output: text.replace(/\n/g, "\r\n"), code: 0 };
    }
    default:
      return { output: `jsh: command not found: ${name}\r\n`, code: 127 };
  }
}

const PROMPT = "\x1b[32m❯\x1b[0m ";

class BrowserContainer extends FakeWebContainer {
  constructor() {
    super();
    this.onSpawn = (proc, container, args) => {
      if (args[0] === "-c") {
        const { output, code } = runLine(container, args.slice(1).join(" "));
        if (output) proc.print(output);
        proc.end(code);
        return;
      }
      interactive(proc, container);
    };
  }

  override teardown(): void {
    super.teardown();
    log().tornDown++;
  }
}

/** An interactive jsh for the terminal: echoes keys, runs a line on Enter, Ctrl-C drops it. */
function interactive(proc: FakeProcess, container: FakeWebContainer): void {
  let line = "";
  proc.print(PROMPT);
  proc.onInput = (chunk) => {
    for (const ch of chunk) {
      if (ch === "\r") {
        const { output } = runLine(container, line);
        proc.print(`\r\n${output}${PROMPT}`);
        line = "";
      } else if (ch === "\x7f") {
        if (line) {
          line = line.slice(0, -1);
          proc.print("\b \b");
        }
      } else if (ch === "\x03") {
        line = "";
        proc.print(`^C\r\n${PROMPT}`);
      } else if (ch >= " ") {
        line += ch;
        proc.print(ch);
      }
    }
  };
}

export class WebContainer {
  static boot(options?: unknown): Promise<BrowserContainer> {
    const entry = log();
    bootCalled = true;
    // Like the real API: one instance per page; a second boot() while one exists fails.
    if (instance) return Promise.reject(new Error("Unable to boot more than one WebContainer instance."));
    entry.boots++;
    entry.options = options;
    const mode: BootMode = window.__webcodeFakeWebContainer?.boot ?? "hang";
    if (mode === "hang") instance = new Promise<BrowserContainer>(() => undefined);
    else if (mode === "fail") {
      return Promise.reject(new Error("Failed to execute 'postMessage' on 'Window': the headless frame did not load (fake)."));
    } else instance = new Promise((resolve) => setTimeout(() => resolve(new BrowserContainer()), mode.delayMs));
    return instance;
  }
}
