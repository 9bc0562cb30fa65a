// What node and python3 share as shell commands: their standard streams. just-bash gives a custom
// command's output to the shell only when the command returns, so a program whose output reaches
// the terminal (the routing marker, output-routing.ts) appends it to the run's output sinks as it
// is written (the terminal shows it at once, the agent's bash collects it in order); output that is
// captured (a pipe, a file, $(...)) is returned at the end as before. Standard input is what was
// piped, or, for a foreground program of the interactive terminal, the terminal itself.
import type { CommandContext, IFileSystem } from "just-bash";
import { OOM_MESSAGE, type ProgramInput, type SandboxRunResult } from "../sandbox";
import { STREAMS_ENV, programStreams } from "./output-routing";
import type { ProgramTerminal } from "./terminal-input";

export interface ProgramIo {
  /** The interactive terminal of the run that owns this file system, if any (BashHost.terminalOf). */
  terminalOf?(fs: IFileSystem): ProgramTerminal | undefined;
  /** Aborted on Ctrl-C or Stop of the run that owns this file system, before the run is stopped (BashHost.interruptOf). */
  interruptOf?(fs: IFileSystem): AbortSignal | undefined;
  /** The program of that run handles a signal: the run gives it the grace period before it is stopped. */
  handlesSignals?(fs: IFileSystem): void;
}

export interface ProgramStdio {
  /** For the run message. */
  env: Record<string, string>;
  stdin: Uint8Array | null;
  terminal: boolean;
  /** For SandboxHost.run: answers terminal reads. */
  input: ProgramInput | undefined;
  out(text: string): void;
  err(text: string): void;
  /**
   * A note about the runtime itself ("Loading Python…"), not the program's output: shown only when
   * standard error reaches the terminal, never written into a file, pipe or capture (`2>&1 > log`).
   */
  status(text: string): void;
  /** Adds the run's closing message (out of memory, a failure) to stderr, on a line of its own. */
  note(text: string | undefined): void;
  /** The closing message of a run that ended from outside or failed, for the command `name`. */
  closing(name: string, result: SandboxRunResult): string | undefined;
  /** Releases the terminal and waits for the streamed output; the command's result. */
  finish(exitCode: number): Promise<{ stdout: string; stderr: string; exitCode: number }>;
}

export function programStdio(ctx: CommandContext, io: ProgramIo): ProgramStdio {
  const streams = programStreams(ctx.env);
  const env = { ...(ctx.exportedEnv ?? Object.fromEntries(ctx.env)) };
  delete env[STREAMS_ENV];
  const piped = pipedInput(ctx.stdin as unknown as string);
  const terminal = streams.terminalInput && piped === null ? io.terminalOf?.(ctx.fs) : undefined;
  let session: ReturnType<ProgramTerminal["open"]> | undefined;
  const collected = { stdout: "", stderr: "" };
  let chain: Promise<void> = Promise.resolve();
  let lastChar = "\n";
  const writer = (stream: "stdout" | "stderr", sink: string | undefined) => (text: string) => {
    if (text === "") return;
    lastChar = text[text.length - 1]!;
    if (sink === undefined) collected[stream] += text;
    // One chain for both streams keeps stdout and stderr in the order they were written.
    else chain = chain.then(() => ctx.fs.appendFile(sink, text)).catch(() => undefined);
  };
  const err = writer("stderr", streams.stderr);
  return {
    env,
    stdin: piped,
    terminal: terminal !== undefined,
    input: terminal && {
      read: () => {
        session ??= terminal.open();
        return session.read();
      },
    },
    out: writer("stdout", streams.stdout),
    err,
    status(text) {
      if (streams.stderr !== undefined) err(text);
    },
    closing(name, result) {
      if (result.end === "oom") return `${name}: ${OOM_MESSAGE}`;
      return result.message;
    },
    note(text) {
      if (text) err(`${lastChar === "\n" ? "" : "\n"}${text}\n`);
    },
    async finish(exitCode) {
      session?.close();
      await chain;
      return { ...collected, exitCode };
    },
  };
}

/** just-bash hands piped input as a latin1 string of bytes ("" when nothing is piped). */
export function pipedInput(bytes: string): Uint8Array | null {
  if (!bytes) return null;
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  return out;
}
