// Keeps stdout and stderr in the order commands wrote them, and streams them as they come.
//
// just-bash gives nothing back until a script ends, and then stdout and stderr as two separate
// strings: `echo a; echo b >&2; echo c` would come back as "a\nc\n" and "b\n". It has no output
// hooks, and its `exec >file` is applied even inside $(...) and pipes, so it cannot be used either.
// What it does do faithfully is per-command redirection. So before a script runs, a transform
// plugin (just-bash's own AST hook) gives every command whose output would reach the terminal
// redirections to two sink files, /dev/webcode/1 and /dev/webcode/2, placed before the command's
// own redirections so that `>&2`, `2>&1` or `>file` still win as in bash. Each command's output is
// then appended to a sink the moment that command finishes, in order. Output that is captured
// ($(...), a pipe, a redirection on an enclosing block) is left alone, and function bodies, eval
// and source are not rewritten (their call is routed as one command), so semantics do not change.
//
// The sink's appends are also where a running script yields to the event loop: just-bash runs on
// microtasks only, so without this a busy loop would never let a keypress (Ctrl-C) in.
import type {
  BufferEncoding,
  CommandNode,
  FileContent,
  FsStat,
  IFileSystem,
  PipelineNode,
  ScriptNode,
  SimpleCommandNode,
  StatementNode,
} from "just-bash";
import { yieldToEventLoop } from "../../base";

export const OUTPUT_SINK_DIR = "/dev/webcode";
const SINK_PATHS = { stdout: `${OUTPUT_SINK_DIR}/1`, stderr: `${OUTPUT_SINK_DIR}/2` } as const;

export type OutputStream = "stdout" | "stderr";
export interface OutputChunk {
  stream: OutputStream;
  text: string;
}

type Redirection = SimpleCommandNode["redirections"][number];
/** Where a descriptor ends up: one of the sinks, or somewhere the script decided (file, pipe, capture). */
type Target = OutputStream | "other";
interface Routing {
  /** Whether standard input is still the terminal (not piped or redirected). */
  0: "terminal" | "other";
  1: Target;
  2: Target;
}

const TOP: Routing = { 0: "terminal", 1: "stdout", 2: "stderr" };

/** just-bash's TransformPlugin shape (the type itself is not exported by the browser bundle). */
export const outputRoutingPlugin = {
  name: "webcode-output-routing",
  transform(context: { ast: ScriptNode }): { ast: ScriptNode } {
    if (persistentRedirections(context.ast) || context.ast.statements.some((statement) => statement.deferredError)) {
      return { ast: context.ast };
    }
    return { ast: { ...context.ast, statements: statements(context.ast.statements, TOP) } };
  },
};

/**
 * `exec >file` changes where every later command writes; routing each command to the sinks would
 * override that, so such scripts keep just-bash's own (unordered) output. So do scripts with a
 * syntax error (just-bash reports it when it gets there, and drops what ran before: as bash, which
 * runs nothing of a line it cannot parse).
 */
function persistentRedirections(ast: ScriptNode): boolean {
  let found = false;
  const visit = (value: unknown): void => {
    if (found || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    const node = value as { type?: string; name?: unknown; args?: unknown[] };
    if (node.type === "SimpleCommand" && literal(node.name as SimpleCommandNode["name"]) === "exec" && node.args?.length === 0) {
      found = true;
      return;
    }
    for (const child of Object.values(node)) visit(child);
  };
  visit(ast.statements);
  return found;
}

function statements(list: StatementNode[], routing: Routing): StatementNode[] {
  if (routing[0] === "other" && routing[1] === "other" && routing[2] === "other") return list;
  return list.map((statement) => ({ ...statement, pipelines: statement.pipelines.map((pipeline) => pipelineNode(pipeline, routing)) }));
}

function pipelineNode(pipeline: PipelineNode, routing: Routing): PipelineNode {
  const last = pipeline.commands.length - 1;
  return {
    ...pipeline,
    commands: pipeline.commands.map((command, index) =>
      commandNode(command, {
        0: index === 0 ? routing[0] : "other",
        ...(index === last ? { 1: routing[1], 2: routing[2] } : { 1: "other" as const, 2: pipeline.pipeStderr?.[index] ? ("other" as const) : routing[2] }),
      }),
    ),
  };
}

function commandNode(command: CommandNode, routing: Routing): CommandNode {
  switch (command.type) {
    case "SimpleCommand":
    case "ArithmeticCommand":
    case "ConditionalCommand": {
      // Assignments alone (`x=$(cmd)`): just-bash drops the stderr of their substitutions when they
      // carry a redirection, so they are left as they are (that stderr comes at the end instead).
      if (command.type === "SimpleCommand" && command.name === null) return command;
      const own = sinkRedirections(routing, command.line);
      const routed = own.length === 0 ? command : { ...command, redirections: [...own, ...command.redirections] };
      return routed.type === "SimpleCommand" ? withTerminalMarker(routed, routing, command.redirections) : routed;
    }
    // A function body runs wherever it is called (perhaps inside $(...)): its calls are routed instead.
    case "FunctionDef":
      return command;
    case "If": {
      const inner = redirected(routing, command.redirections);
      return {
        ...command,
        clauses: command.clauses.map((clause) => ({ condition: statements(clause.condition, inner), body: statements(clause.body, inner) })),
        elseBody: command.elseBody ? statements(command.elseBody, inner) : null,
      };
    }
    case "For":
    case "CStyleFor":
    case "Subshell":
    case "Group":
      return { ...command, body: statements(command.body, redirected(routing, command.redirections)) };
    case "While":
    case "Until": {
      const inner = redirected(routing, command.redirections);
      return { ...command, condition: statements(command.condition, inner), body: statements(command.body, inner) };
    }
    case "Case": {
      const inner = redirected(routing, command.redirections);
      return { ...command, items: command.items.map((item) => ({ ...item, body: statements(item.body, inner) })) };
    }
  }
}

/** Commands that run scripts of their own through the shell and need to know where their output goes. */
export const TERMINAL_AWARE_COMMANDS = new Set(["npm", "npx", "vite"]);
/** Set for those commands: "1" when their stdout reaches the terminal, "2" for stderr, "12" both, "" neither. */
export const TERMINAL_ENV = "WEBCODE_TERMINAL";

/** For such a command: whether its stdout (1) or stderr (2) reaches the terminal (the marker), like isatty(). */
export function reachesTerminal(env: Map<string, string>, stream: 1 | 2): boolean {
  return (env.get(TERMINAL_ENV) ?? "").includes(String(stream));
}

/**
 * For such a command: a writer that streams its stdout (1) or stderr (2) to the terminal as it
 * comes, when that stream reaches the terminal (the marker); undefined when it is captured.
 */
export function terminalWriter(env: Map<string, string>, fs: Pick<IFileSystem, "appendFile">, stream: 1 | 2): ((text: string) => void) | undefined {
  if (!reachesTerminal(env, stream)) return undefined;
  return (text) => void fs.appendFile(`${OUTPUT_SINK_DIR}/${stream}`, text).catch(() => undefined);
}

/**
 * A script run by such a command (npm run) is parsed anew and routed to the sinks as if at the top;
 * the command uses this marker, like isatty(), to capture that script's output itself when its own
 * output is captured (`npm test > log`, `$(npm ls)`), and to show progress only on a terminal.
 */
function withTerminalMarker(command: SimpleCommandNode, routing: Routing, own: Redirection[]): SimpleCommandNode {
  const name = literal(command.name);
  if (name === undefined || !(TERMINAL_AWARE_COMMANDS.has(name) || PROGRAM_COMMANDS.has(name))) return command;
  const effective = redirected(routing, own);
  const value = PROGRAM_COMMANDS.has(name)
    ? `${effective[0] === "terminal" ? "t" : "-"}${sinkDigit(effective[1])}${sinkDigit(effective[2])}`
    : `${effective[1] !== "other" ? "1" : ""}${effective[2] !== "other" ? "2" : ""}`;
  const assignment = {
    type: "Assignment" as const,
    name: PROGRAM_COMMANDS.has(name) ? STREAMS_ENV : TERMINAL_ENV,
    value: { type: "Word" as const, parts: [{ type: "Literal" as const, value }] },
    append: false,
    array: null,
  };
  return { ...command, assignments: [...command.assignments, assignment] };
}

function sinkDigit(target: Target): string {
  return target === "stdout" ? "1" : target === "stderr" ? "2" : "-";
}

/** Programs that stream their output while they run and may read the terminal (node, python3). */
export const PROGRAM_COMMANDS = new Set(["node", "python3", "python"]);
/**
 * Set for those commands, three characters like "t12": standard input is the terminal ("t") or not
 * ("-"); then, for stdout and stderr, the sink each reaches ("1" or "2", /dev/webcode/N) or "-" when
 * the script captures it (a pipe, a file, $(...)). See programStreams().
 */
export const STREAMS_ENV = "WEBCODE_STREAMS";

export interface ProgramStreams {
  /** Standard input is the terminal. */
  terminalInput: boolean;
  /** Where each output stream goes while the program runs: a sink path, or undefined (collected, returned at the end). */
  stdout: string | undefined;
  stderr: string | undefined;
}

/** Reads the marker a program command got (no marker: everything collected, no terminal). */
export function programStreams(env: Map<string, string> | Record<string, string>): ProgramStreams {
  const value = (env instanceof Map ? env.get(STREAMS_ENV) : env[STREAMS_ENV]) ?? "";
  const sink = (digit: string | undefined) => (digit === "1" || digit === "2" ? `${OUTPUT_SINK_DIR}/${digit}` : undefined);
  return { terminalInput: value[0] === "t", stdout: sink(value[1]), stderr: sink(value[2]) };
}

/** The routing inside a block after its own redirections (`{ ...; } 2>&1 >log`), in bash's order. */
function redirected(routing: Routing, redirections: Redirection[]): Routing {
  const next: Routing = { ...routing };
  for (const redirection of redirections) {
    if (redirection.fdVariable) continue;
    const word = redirection.target.type === "Word" ? literal(redirection.target) : undefined;
    switch (redirection.operator) {
      case ">":
      case ">>":
      case ">|":
        setTarget(next, redirection.fd ?? 1, "other");
        break;
      case "<>":
        setTarget(next, redirection.fd ?? 0, "other");
        break;
      case "&>":
      case "&>>":
        return { 0: next[0], 1: "other", 2: "other" };
      case ">&":
      case "<&": {
        const fd = redirection.fd ?? (redirection.operator === ">&" ? 1 : 0);
        if (word === "1" || word === "2") setTarget(next, fd, next[word]);
        else if (redirection.fd === null && redirection.operator === ">&" && word !== undefined && !/^\d+$/.test(word) && word !== "-") {
          return { 0: next[0], 1: "other", 2: "other" }; // `>&file`: both streams to the file
        } else setTarget(next, fd, "other");
        break;
      }
      default:
        // input: <, <<, <<-, <<<
        if ((redirection.fd ?? 0) === 0) next[0] = "other";
        break;
    }
  }
  return next;
}

function setTarget(routing: Routing, fd: number, target: Target): void {
  if (fd === 1 || fd === 2) routing[fd] = target;
  else if (fd === 0) routing[0] = "other";
}

function sinkRedirections(routing: Routing, line: number | undefined): Redirection[] {
  const out: Redirection[] = [];
  const word = (value: string) => ({ type: "Word" as const, parts: [{ type: "Literal" as const, value }] });
  const append = (fd: 1 | 2, stream: OutputStream): Redirection => ({ type: "Redirection", fd, operator: ">>", target: word(SINK_PATHS[stream]), line });
  if (routing[1] !== "other") out.push(append(1, routing[1]));
  if (routing[2] !== "other") {
    out.push(routing[2] === routing[1] ? { type: "Redirection", fd: 2, operator: ">&", target: word("1"), line } : append(2, routing[2]));
  }
  return out;
}

function literal(word: SimpleCommandNode["name"]): string | undefined {
  if (!word || word.parts.length !== 1) return undefined;
  const part = word.parts[0]!;
  return part.type === "Literal" ? part.value : undefined;
}

// ---- the sinks ------------------------------------------------------------------------------

/** How long a script may run on microtasks before it lets the event loop (keys, rendering) in. */
const YIELD_EVERY_MS = 25;

/**
 * The two sink files, mounted at /dev/webcode for one run. Appends become chunks; everything else
 * about them is a plain empty file. Once closed (the run has answered), appends are dropped.
 */
export class OutputSinkFs implements IFileSystem {
  private closed = false;
  private lastYield = Date.now();
  private readonly decoder = new TextDecoder();

  constructor(private readonly onChunk: (chunk: OutputChunk) => void) {}

  close(): void {
    this.closed = true;
  }

  async appendFile(path: string, content: FileContent, options?: { encoding?: BufferEncoding } | BufferEncoding): Promise<void> {
    const stream = this.streamOf(path);
    const text = this.text(content, typeof options === "string" ? options : options?.encoding);
    if (text !== "" && !this.closed) this.onChunk({ stream, text });
    if (Date.now() - this.lastYield >= YIELD_EVERY_MS) {
      await yieldToEventLoop();
      this.lastYield = Date.now();
    }
  }

  async writeFile(path: string, content: FileContent, options?: { encoding?: BufferEncoding } | BufferEncoding): Promise<void> {
    await this.appendFile(path, content, options);
  }

  async readFile(path: string): Promise<string> {
    this.streamOf(path);
    return "";
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    this.streamOf(path);
    return new Uint8Array();
  }

  async exists(path: string): Promise<boolean> {
    return path === "/" || path === "" || this.isSink(path);
  }

  async stat(path: string): Promise<FsStat> {
    const directory = path === "/" || path === "";
    if (!directory) this.streamOf(path);
    return {
      isFile: !directory,
      isDirectory: directory,
      isSymbolicLink: false,
      mode: directory ? 0o755 : 0o666,
      size: 0,
      mtime: new Date(),
    };
  }

  async lstat(path: string): Promise<FsStat> {
    return this.stat(path);
  }

  async readdir(path: string): Promise<string[]> {
    if (path !== "/" && path !== "") throw error("ENOTDIR", path);
    return ["1", "2"];
  }

  async realpath(path: string): Promise<string> {
    return path;
  }

  resolvePath(base: string, path: string): string {
    const joined = path.startsWith("/") ? path : `${base.replace(/\/$/, "")}/${path}`;
    const parts: string[] = [];
    for (const part of joined.split("/")) {
      if (part === "" || part === ".") continue;
      if (part === "..") parts.pop();
      else parts.push(part);
    }
    return `/${parts.join("/")}`;
  }

  getAllPaths(): string[] {
    return ["/1", "/2"];
  }

  async mkdir(path: string): Promise<void> {
    throw error("EACCES", path);
  }
  async rm(path: string): Promise<void> {
    throw error("EACCES", path);
  }
  async cp(_src: string, dest: string): Promise<void> {
    throw error("EACCES", dest);
  }
  async mv(src: string): Promise<void> {
    throw error("EACCES", src);
  }
  async chmod(path: string): Promise<void> {
    throw error("EACCES", path);
  }
  async symlink(_target: string, linkPath: string): Promise<void> {
    throw error("EACCES", linkPath);
  }
  async link(_existing: string, newPath: string): Promise<void> {
    throw error("EACCES", newPath);
  }
  async readlink(path: string): Promise<string> {
    throw error("EINVAL", path);
  }
  async utimes(): Promise<void> {}

  private isSink(path: string): boolean {
    return path === "/1" || path === "/2" || path === "1" || path === "2";
  }

  private streamOf(path: string): OutputStream {
    if (!this.isSink(path)) throw error("ENOENT", path);
    return path.endsWith("1") ? "stdout" : "stderr";
  }

  private text(content: FileContent, encoding: BufferEncoding | undefined): string {
    if (content instanceof Uint8Array) return this.decoder.decode(content);
    if (encoding === "binary" || encoding === "latin1") {
      const bytes = new Uint8Array(content.length);
      for (let i = 0; i < content.length; i++) bytes[i] = content.charCodeAt(i) & 0xff;
      return this.decoder.decode(bytes);
    }
    return content;
  }
}

function error(code: string, path: string): Error {
  const failure = new Error(`${code}: not permitted, '${OUTPUT_SINK_DIR}${path === "/" ? "" : path}'`) as Error & { code: string };
  failure.code = code;
  return failure;
}
