// The bash tool: runs a command in the workspace runtime's shell, streaming output into the tool part,
// stopping on timeout or abort, keeping the tail of long output and reporting the exit code.
import { z } from "zod";
import description from "../../../prompts/tools/bash.md?raw";
import { commandGate, textChecks } from "../permission/command-gate";
import { errorMessage } from "../../base";
import { WorkspaceFsError, isFsError } from "../../runtime";
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES, truncateText } from "./wrapper";
import { resolveToolPath, showPath } from "./workspace-path";
import type { ToolDefinition } from "./tool";

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
/** Live output reaches the tool part at most this often. */
export const BASH_UPDATE_INTERVAL_MS = 100;
/** Output kept in memory for the UI; a runaway command keeps only its last bytes. */
export const BASH_MAX_KEPT_CHARS = 1024 * 1024;

const parameters = z.object({
  command: z.string().min(1),
  timeout: z.number().positive().optional(),
  workdir: z.string().optional().describe("Folder to run in (default: root)"),
  description: z.string().describe("What it does, in 5-10 words"),
});

export const bashTool: ToolDefinition<typeof parameters> = {
  id: "bash",
  description,
  parameters,
  async execute(args, context) {
    const timeout = Math.floor(Math.min(args.timeout ?? BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS));
    const cwd = await resolveToolPath(args.workdir ?? "", context);
    if (cwd !== "") {
      const stat = await context.runtime.fs.stat(cwd);
      if (stat?.kind !== "dir") throw new Error(`workdir ${cwd} is not a folder of the workspace.`);
    }
    // A runtime that shows each command and request as it runs is judged on those (command-gate.ts);
    // one that runs the line in its own shell is judged on the line's text, before it runs.
    const stopLine = new AbortController();
    const checks = context.runtime.capabilities.gate
      ? commandGate({ line: args.command, description: args.description, ask: (request) => context.ask(request), onRefused: () => stopLine.abort() })
      : undefined;
    if (!checks) for (const request of textChecks(args.command, args.description)) await context.ask(request);

    let output = "";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const publish = () => {
      timer = undefined;
      context.update({ metadata: { output: tailOf(output), description: args.description } });
    };
    context.update({ title: args.description, metadata: { output: "", description: args.description } });
    // A change the command made that storage refuses (full) is undone in the workspace; the
    // result must say so rather than report a success a reload would not show.
    const fs = context.runtime.fs;
    let refused: unknown;
    const watching = fs.onDidFailToPersist((error) => (refused ??= error));
    let result;
    try {
      result = await context.runtime.exec(args.command, {
        cwd,
        timeoutMs: timeout,
        signal: AbortSignal.any([context.abort, stopLine.signal]),
        source: "agent",
        ...(checks && { gate: checks.gate }),
        onOutput: (chunk) => {
          output += chunk;
          if (output.length > BASH_MAX_KEPT_CHARS * 2) output = output.slice(-BASH_MAX_KEPT_CHARS);
          timer ??= setTimeout(publish, BASH_UPDATE_INTERVAL_MS);
        },
      });
      // Everything the command changed is stored before its result is reported.
      await fs.flush().catch((error: unknown) => (refused ??= error));
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      watching.dispose();
    }
    // A reject or deny while the line ran is the call's answer (as for an ask before it): a bare
    // reject stops the turn, one with a message tells the model what to do instead.
    if (checks?.refusal() !== undefined) throw checks.refusal();
    // Runtimes that do not stream still return the whole output.
    const full = (result.output || output).slice(-BASH_MAX_KEPT_CHARS);
    const cut = truncateText(full, { keep: "tail" });
    const notes: string[] = [];
    if (cut.truncated) {
      notes.push(
        `(Output truncated: showing the last ${cut.text.split("\n").length} of ${full.split("\n").length} lines, at most ${MAX_OUTPUT_LINES} lines or ${MAX_OUTPUT_BYTES / 1024} KB. Redirect to a file and read or grep it for the rest.)`,
      );
    }
    const aborted = result.aborted === true || context.abort.aborted;
    if (result.timedOut) notes.push(`(The command timed out after ${timeout} ms and was stopped. Use a longer timeout or a quicker command.)`);
    else if (aborted) notes.push("(The command was aborted by the user.)");
    const body = cut.text.trim() === "" ? "(no output)" : cut.text.replace(/\n+$/, "");
    const text = [cut.truncated ? notes.shift()! : undefined, body, ...notes, `Exit code: ${result.exitCode}`].filter((x) => x !== undefined).join("\n\n");
    if (refused !== undefined) {
      // The call fails (the turn then stops, as for any refused write), with what the command printed.
      const code = isFsError(refused) ? refused.code : "EIO";
      throw new WorkspaceFsError(code, `Files this command changed could not be saved, so those changes were undone: ${errorMessage(refused)}\n\n${text}`, "", { cause: refused });
    }
    return {
      title: args.description || args.command,
      output: text,
      metadata: {
        output: tailOf(full),
        exitCode: result.exitCode,
        description: args.description,
        workdir: showPath(cwd),
        timedOut: result.timedOut === true,
        aborted,
        truncated: cut.truncated,
        ...(cut.truncated && { fullOutput: full }),
      },
    };
  },
};

/** The end of the output for the live view (the part is re-sent on every update). */
function tailOf(output: string): string {
  return output.length > MAX_OUTPUT_BYTES ? output.slice(-MAX_OUTPUT_BYTES) : output;
}
