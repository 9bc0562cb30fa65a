// The shared tool wrapper (docs/agent.md, "Tools"): validates the model's input with zod, times the call and
// truncates long output (keeping the full text for the UI), so each tool only does its own work.
import type { z } from "zod";
import { errorMessage } from "../../base";
import type { ToolContext, ToolDefinition, ToolResult } from "./tool";

/** Output sent to the model is cut at this many lines ... */
export const MAX_OUTPUT_LINES = 2000;
/** ... or this many bytes (UTF-8), whichever comes first. */
export const MAX_OUTPUT_BYTES = 50 * 1024;

/** The model called a tool with arguments that do not fit its schema; the loop returns this to it. */
export class InvalidToolInputError extends Error {
  constructor(
    readonly toolId: string,
    readonly reason: string,
  ) {
    super(`The ${toolId} tool was called with invalid arguments: ${reason}. Rewrite the input so it satisfies the expected schema.`);
    this.name = "InvalidToolInputError";
  }
}

/** One line per problem: "filePath: Invalid input: expected string, received undefined". */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

const encoder = new TextEncoder();

export interface Truncated {
  text: string;
  truncated: boolean;
}

/**
 * Keeps the head (or, with `keep: "tail"`, the end) of `text` within the line and byte limits.
 * Cuts on line boundaries; a single line longer than the byte limit is cut inside.
 */
export function truncateText(text: string, options: { maxLines?: number; maxBytes?: number; keep?: "head" | "tail" } = {}): Truncated {
  const maxLines = options.maxLines ?? MAX_OUTPUT_LINES;
  const maxBytes = options.maxBytes ?? MAX_OUTPUT_BYTES;
  const lines = text.split("\n");
  if (lines.length <= maxLines && encoder.encode(text).length <= maxBytes) return { text, truncated: false };
  const ordered = options.keep === "tail" ? [...lines].reverse() : lines;
  const kept: string[] = [];
  let bytes = 0;
  for (const line of ordered) {
    if (kept.length >= maxLines) break;
    const size = encoder.encode(line).length + (kept.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) {
      if (kept.length === 0) kept.push(cutToBytes(line, maxBytes, options.keep === "tail"));
      break;
    }
    kept.push(line);
    bytes += size;
  }
  if (options.keep === "tail") kept.reverse();
  return { text: kept.join("\n"), truncated: true };
}

function cutToBytes(line: string, maxBytes: number, fromEnd: boolean): string {
  // Characters are at most 4 bytes; shrink until it fits (rarely more than a couple of steps).
  let length = Math.min(line.length, maxBytes);
  let cut = fromEnd ? line.slice(line.length - length) : line.slice(0, length);
  while (encoder.encode(cut).length > maxBytes) {
    length = Math.floor(length * 0.9);
    cut = fromEnd ? line.slice(line.length - length) : line.slice(0, length);
  }
  return cut;
}

/**
 * Runs a tool for the loop: invalid input throws InvalidToolInputError; the tool's own errors
 * propagate as Error (the loop records them as error results). Tools that limit their output
 * themselves set `metadata.truncated` and are left alone.
 */
export async function runTool(tool: ToolDefinition, rawInput: unknown, context: ToolContext): Promise<ToolResult> {
  const parsed = tool.parameters.safeParse(rawInput);
  if (!parsed.success) throw new InvalidToolInputError(tool.id, describeZodError(parsed.error));
  const started = performance.now();
  let result: ToolResult;
  try {
    result = await tool.execute(parsed.data, context);
  } catch (error) {
    if (error instanceof Error) throw error;
    throw new Error(errorMessage(error));
  }
  const durationMs = Math.round(performance.now() - started);
  const metadata: Record<string, unknown> = { ...result.metadata, durationMs };
  if (metadata.truncated !== undefined) return { ...result, metadata };
  const cut = truncateText(result.output);
  if (!cut.truncated) return { ...result, metadata: { ...metadata, truncated: false } };
  const totalLines = result.output.split("\n").length;
  const shownLines = cut.text.split("\n").length;
  const note =
    `\n\n(Output truncated: showing the first ${shownLines} of ${totalLines} lines, at most ${MAX_OUTPUT_LINES} lines or ${MAX_OUTPUT_BYTES / 1024} KB. ` +
    "The user can see the full output. Narrow the request (a path, a pattern, offset/limit) to see the rest.)";
  return { ...result, output: cut.text + note, metadata: { ...metadata, truncated: true, fullOutput: result.output } };
}
