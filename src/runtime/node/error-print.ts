// Uncaught errors as Node prints them: the throwing line of the program's file with a caret, the
// error (its stack cut to the program's own frames, its extra properties), and the Node.js version.
import { inspect } from "node-inspect-extracted";
import { NODE_VERSION } from "./node-version";
import { SandboxFsError } from "../sandbox/sandbox-fs";

const FRAME = /^\s+at (?:.*?\()?((?:file:\/\/)?[^()\s]+?):(\d+):(\d+)\)?$/;

export interface ErrorSources {
  /** The text of a program file (undefined when it is not one). */
  source(file: string): string | undefined;
  /** Characters the module wrapper put in front of the file's first line. */
  firstLineOffset?(file: string): number;
}

/** A stack frame's column as it is in the file (the wrapper shifts line 1). */
function fileColumn(sources: ErrorSources, file: string, line: number, column: number): number {
  return line === 1 ? Math.max(1, column - (sources.firstLineOffset?.(file) ?? 0)) : column;
}

/** Keeps the stack's program frames (files the program ran, [eval]), dropping the runtime's own. */
export function programStack(stack: string, sources: ErrorSources): string {
  const lines = stack.split("\n");
  const out: string[] = [];
  for (const line of lines) {
    const match = FRAME.exec(line);
    if (!match) {
      if (!/^\s+at /.test(line)) out.push(line);
      continue;
    }
    const file = match[1]!.replace(/^file:\/\//, "");
    if (file !== "[eval]" && sources.source(file) === undefined) continue;
    const lineNumber = Number(match[2]);
    const column = fileColumn(sources, file, lineNumber, Number(match[3]));
    // A module's top level is "Object.<anonymous>" in Node (the browser names the wrapper "eval").
    out.push(line.replace(`${match[1]}:${match[2]}:${match[3]}`, `${match[1]}:${match[2]}:${column}`).replace(/^(\s+at (?:Object\.)?)eval( \[as [^\]]+\])? \(/, "$1<anonymous>$2 ("));
  }
  return out.join("\n");
}

function header(error: unknown, sources: ErrorSources): string {
  // A module that is not found is thrown by Node's loader, which is what its header shows.
  if ((error as { code?: unknown } | null)?.code === "MODULE_NOT_FOUND") return "node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\n";
  const location = (error as { webcodeLocation?: { file: string; line: number; column: number } } | null)?.webcodeLocation;
  let file: string | undefined;
  // As the stack names it: an ES module by its file URL, which Node's header shows too.
  let shown: string | undefined;
  let line = 0;
  let column = 0;
  if (location) ({ file, line, column } = location);
  else if (error instanceof Error && typeof error.stack === "string") {
    for (const frame of error.stack.split("\n")) {
      const match = FRAME.exec(frame);
      if (!match) continue;
      const candidate = match[1]!.replace(/^file:\/\//, "");
      if (candidate === "[eval]" || sources.source(candidate) !== undefined) {
        file = candidate;
        shown = match[1];
        line = Number(match[2]);
        column = fileColumn(sources, candidate, line, Number(match[3]));
        break;
      }
    }
  }
  if (file === undefined) return "";
  const text = sources.source(file)?.split("\n")[line - 1];
  if (text === undefined) return `${shown ?? file}:${line}\n\n`;
  return `${shown ?? file}:${line}\n${text}\n${" ".repeat(Math.max(0, column - 1))}^\n\n`;
}

/**
 * Errors made by the runtime's own classes print as Node's own errors, whose class is Error: the
 * file system's SandboxFsError ("Error: ENOENT: …" with errno, code, syscall, path) and the
 * stream port's NodeError ("Error [ERR_…]: …", its code on its class's prototype). Their class names are kept in
 * the build (vite.config.ts keepNames), which is how they are told apart here; a program's own
 * classes print as they are named. Undefined: not one of them.
 */
function internalCode(error: Error): string | undefined {
  if (error instanceof SandboxFsError) return "";
  const constructor = (error as { constructor?: { name?: unknown } }).constructor;
  const prototype = Object.getPrototypeOf(error) as object | null;
  if (constructor?.name !== "NodeError" || prototype === null || !Object.prototype.hasOwnProperty.call(prototype, "code")) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : "";
}

/** The whole text Node prints on stderr for an uncaught exception. */
export function formatUncaught(error: unknown, sources: ErrorSources): string {
  let body: string;
  if (error instanceof Error) {
    const stack = typeof error.stack === "string" ? programStack(error.stack, sources) : `${error.name}: ${error.message}`;
    const internal = internalCode(error);
    const copy = Object.create(internal === undefined ? (Object.getPrototypeOf(error) as object) : Error.prototype) as Error;
    for (const key of Object.getOwnPropertyNames(error)) {
      if (key !== "webcodeLocation") Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(error, key)!);
    }
    let shownStack = stack;
    if (internal !== undefined && internal !== "") {
      // Node's internal errors: "Error [CODE]: message", the code an own property.
      shownStack = stack.replace(/^[^\n]*/, `${error.name} [${internal}]: ${error.message}`);
      Object.defineProperty(copy, "code", { value: internal, enumerable: true, configurable: true, writable: true });
    }
    Object.defineProperty(copy, "stack", { value: shownStack, enumerable: false, configurable: true, writable: true });
    body = inspect(copy);
    // inspect() brackets an error whose stack has no frames ([SyntaxError: …]); Node prints it plain.
    // (The first line's last "]" closes the bracket: a message or "[CODE]" may hold others.)
    if (body.startsWith("[") && !/\n\s+at /.test(shownStack)) body = body.replace(/^\[([^\n]*)\]( \{)?$/m, "$1$2");
  } else {
    body = `Uncaught ${inspect(error)}`;
  }
  return `${header(error, sources)}${body}\n\nNode.js ${NODE_VERSION}\n`;
}

/** Node's message for a promise rejected with something that is not an Error. */
export function unhandledRejectionError(reason: unknown): unknown {
  if (reason instanceof Error) return reason;
  const error = new Error(
    `This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "${inspect(reason)}".`,
  );
  error.name = "UnhandledPromiseRejection";
  Object.defineProperty(error, "stack", { value: `[UnhandledPromiseRejection: ${error.message}]` });
  return Object.assign(error, { code: "ERR_UNHANDLED_REJECTION" });
}
