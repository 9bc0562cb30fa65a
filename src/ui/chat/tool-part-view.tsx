// One tool call in the transcript: status, a one-line summary of the input, and the tool's own
// view — live output for bash, the diff for edits and writes, the todo list, the subagent link.
// Tool input and metadata are untrusted JSON (model output, share links): every field is checked
// before it is rendered, so a wrong type shows as nothing rather than breaking the transcript.
import { ErrorText } from "./error-wording";
import { memo, useMemo, useState } from "react";
import { revealInvisibleChars, revealInvisibleInText } from "../../base";
import type { PartRecord, TodoItem, ToolState } from "../../storage";
import { Markdown, highlightCode } from "../markdown";
import { formatDuration } from "./format";

export type ToolPart = Extract<PartRecord, { type: "tool" }>;

/** How many characters of live bash output are shown (the tail); the rest is a click away. */
export const LIVE_OUTPUT_TAIL_CHARS = 20_000;

const STATUS_LABEL: Record<ToolState["status"], string> = {
  pending: "Pending",
  running: "Running",
  completed: "Done",
  error: "Failed",
};

/**
 * The status shown for a call: a call the user stopped says so, whether the tool still returned a
 * result (bash reports what the command printed before it was killed) or ended with "aborted".
 */
export function toolStatusLabel(state: ToolState): string {
  if (state.status === "completed" && record(state.metadata).aborted === true) return "Stopped";
  if (state.status === "error" && state.error === "aborted") return "Stopped";
  return STATUS_LABEL[state.status];
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function metadataOf(state: ToolState): Record<string, unknown> {
  return "metadata" in state ? record(state.metadata) : {};
}

/** JSON text of any value, for "Show input" (never throws: cycles or BigInts give ""). */
function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return "";
  }
}

const TODO_STATUSES: ReadonlySet<string> = new Set<TodoItem["status"]>(["pending", "in_progress", "completed", "cancelled"]);
const TODO_PRIORITIES: ReadonlySet<string> = new Set<TodoItem["priority"]>(["high", "medium", "low"]);

/** The valid items of an untrusted todo list (content a string, status a known one), and how many were not. */
export function parseTodos(value: unknown): { todos: TodoItem[]; invalid: number } {
  if (!Array.isArray(value)) return { todos: [], invalid: 0 };
  const todos: TodoItem[] = [];
  for (const item of value as unknown[]) {
    const fields = record(item);
    const content = text(fields.content);
    const status = text(fields.status);
    if (content === undefined || status === undefined || !TODO_STATUSES.has(status)) continue;
    const priority = text(fields.priority);
    todos.push({ content, status: status as TodoItem["status"], priority: priority !== undefined && TODO_PRIORITIES.has(priority) ? (priority as TodoItem["priority"]) : "medium" });
  }
  return { todos, invalid: value.length - todos.length };
}

interface TaskStep {
  callId: string;
  tool: string;
  status: string;
  title?: string;
}

/** The subagent's progress steps that have the expected shape (tool and status strings). */
function parseTaskSteps(value: unknown): TaskStep[] {
  if (!Array.isArray(value)) return [];
  const steps: TaskStep[] = [];
  for (const item of value as unknown[]) {
    const fields = record(item);
    const tool = text(fields.tool);
    const status = text(fields.status);
    if (tool === undefined || status === undefined) continue;
    const title = text(fields.title);
    steps.push({ callId: text(fields.callId) ?? `step-${steps.length}`, tool, status, ...(title !== undefined ? { title } : {}) });
  }
  return steps;
}

/** The one line that says what the call does: the command, the path, the pattern. */
export function summarizeToolInput(tool: string, input: unknown): string {
  const args = record(input);
  const pick = (...keys: string[]) => keys.map((k) => text(args[k])).find((v) => v !== undefined && v !== "");
  switch (tool) {
    case "bash":
      return pick("description", "command") ?? "";
    case "read":
    case "write":
    case "edit":
      return pick("filePath", "path") ?? "";
    case "glob":
    case "grep":
      return [pick("pattern"), pick("path", "include")].filter(Boolean).join(" in ");
    case "list":
      return pick("path") ?? ".";
    case "webfetch":
      return pick("url") ?? "";
    case "task":
      return [pick("subagent_type"), pick("description")].filter(Boolean).join(": ");
    case "todowrite":
      return `${Array.isArray(args.todos) ? args.todos.length : 0} items`;
    case "apply_patch": {
      const patch = pick("patchText") ?? "";
      const files = Array.from(patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm), (m) => m[1]);
      return files.join(", ");
    }
    default:
      return pick("description", "filePath", "path", "pattern", "command", "url", "query") ?? "";
  }
}

export interface ToolPartViewProps {
  part: ToolPart;
  /** Opens a subagent's child session (task parts). */
  onOpenSession?(sessionId: string): void;
  now?: number;
}

export const ToolPartView = memo(function ToolPartView({ part, onOpenSession }: ToolPartViewProps) {
  const { state, tool } = part;
  const [showInput, setShowInput] = useState(false);
  const metadata = metadataOf(state);
  // Bidi and zero-width characters are shown as ⟨U+…⟩ so a title cannot pass for something else.
  const title = revealInvisibleChars(text("title" in state ? state.title : undefined) || summarizeToolInput(tool, state.input));
  const duration = state.status === "completed" || state.status === "error" ? formatDuration(state.end - state.start) : undefined;
  const status = toolStatusLabel(state);
  const statusClass = status === "Stopped" ? "stopped" : state.status;
  return (
    // A group, not a section: a named section is a landmark, and a long turn would list dozens.
    <div className={`tool-part tool-${statusClass}`} role="group" aria-label={`${tool} tool call, ${status}`}>
      <header className="tool-header">
        <span className="tool-name">{tool}</span>
        <span className="tool-title" title={title}>
          {title}
        </span>
        <span className={`tool-status tool-status-${statusClass}`}>{status}</span>
        {duration && <span className="tool-duration">{duration}</span>}
        <button type="button" className="link-button" aria-expanded={showInput} onClick={() => setShowInput((v) => !v)}>
          {showInput ? "Hide input" : "Show input"}
        </button>
      </header>
      {showInput && <pre className="tool-input">{jsonText(state.input) ?? (state.status === "pending" ? text(state.raw) : "")}</pre>}
      <ToolBody part={part} metadata={metadata} onOpenSession={onOpenSession} />
      {state.status === "error" && (
        <div className="tool-error" role="status">
          <ErrorText text={state.error} className="tool-error-text" />
        </div>
      )}
    </div>
  );
});

function ToolBody({ part, metadata, onOpenSession }: { part: ToolPart; metadata: Record<string, unknown>; onOpenSession?(id: string): void }) {
  const { state, tool } = part;
  const input = record(state.input);
  switch (tool) {
    case "bash": {
      const command = text(input.command);
      const live = text(metadata.output);
      // metadata.output is the raw output (tail); the tool's `output` adds notes for the model.
      const output = state.status === "completed" ? (text(metadata.fullOutput) ?? live ?? state.output) : live;
      const exitCode = typeof metadata.exitCode === "number" ? metadata.exitCode : undefined;
      return (
        <div className="tool-body">
          {command && (
            <pre className="tool-command">
              <code dangerouslySetInnerHTML={{ __html: highlightCode(`$ ${revealInvisibleInText(command)}`, "bash") }} />
            </pre>
          )}
          {output !== undefined && output !== "" && <TerminalOutput output={output} live={state.status === "running"} />}
          {exitCode !== undefined && exitCode !== 0 && <p className="tool-note">Exit code {exitCode}</p>}
        </div>
      );
    }
    case "edit":
    case "write":
    case "apply_patch": {
      const diff = text(metadata.diff);
      return diff ? <DiffBlock diff={diff} /> : null;
    }
    case "todowrite": {
      const { todos, invalid } = parseTodos(input.todos);
      return (
        <>
          <TodoList todos={todos} />
          {invalid > 0 && <p className="tool-note">{invalid === 1 ? "1 item could not be shown (not a valid todo)." : `${invalid} items could not be shown (not valid todos).`}</p>}
        </>
      );
    }
    case "task": {
      const childId = text(metadata.sessionId);
      const progress = parseTaskSteps(metadata.summary);
      const result = state.status === "completed" ? /<task_result>\n?([\s\S]*?)\n?<\/task_result>/.exec(state.output)?.[1] ?? state.output : undefined;
      return (
        <div className="tool-body">
          {progress.length > 0 && (
            <ul className="task-progress" aria-label="Subagent progress">
              {progress.map((step, index) => (
                <li key={`${index}:${step.callId}`} className={`task-step tool-status-${step.status}`}>
                  <span className="tool-name">{step.tool}</span> {step.title ?? ""}
                </li>
              ))}
            </ul>
          )}
          {childId && onOpenSession && (
            <button type="button" className="button" onClick={() => onOpenSession(childId)}>
              Open subagent session
            </button>
          )}
          {result && <Markdown text={result} className="tool-markdown" />}
        </div>
      );
    }
    case "question": {
      if (state.status !== "completed") return null;
      return <p className="tool-note">{state.output}</p>;
    }
    default: {
      if (state.status !== "completed" || !state.output) return null;
      if (metadata.mcp) return <McpResult output={state.output} attachments={state.attachments ?? []} />;
      return <CollapsedOutput output={state.output} />;
    }
  }
}

/** Live or finished command output: the tail while it streams, everything on request. */
function TerminalOutput({ output, live }: { output: string; live: boolean }) {
  const [full, setFull] = useState(false);
  const cut = !full && output.length > LIVE_OUTPUT_TAIL_CHARS;
  const shown = cut ? output.slice(-LIVE_OUTPUT_TAIL_CHARS) : output;
  return (
    <div className="tool-output-wrap">
      {cut && (
        <button type="button" className="link-button" onClick={() => setFull(true)}>
          Show all {output.length.toLocaleString()} characters
        </button>
      )}
      <pre className="tool-output" aria-live={live ? "polite" : undefined} aria-label="Command output">
        {shown}
      </pre>
    </div>
  );
}

/** Images a tool may show: raster or SVG data URLs, drawn through <img> (never as markup in the page). */
const SAFE_IMAGE_URL = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/=]+$/;

/** An MCP tool's result: its text as the model got it, and its images. */
function McpResult({ output, attachments }: { output: string; attachments: ReadonlyArray<{ mime: string; filename: string; url: string }> }) {
  const images = attachments.filter((a) => SAFE_IMAGE_URL.test(a.url));
  return (
    <div className="tool-body">
      <pre className="tool-output" aria-label="Tool result">
        {revealInvisibleInText(output)}
      </pre>
      {images.map((image) => (
        <img key={image.filename} className="tool-image" src={image.url} alt={`Image from the tool: ${image.filename}`} />
      ))}
    </div>
  );
}

function CollapsedOutput({ output }: { output: string }) {
  const [open, setOpen] = useState(false);
  const lines = output.split("\n").length;
  return (
    <div className="tool-output-wrap">
      <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        {open ? "Hide output" : `Show output (${lines} line${lines === 1 ? "" : "s"})`}
      </button>
      {open && <pre className="tool-output">{output}</pre>}
    </div>
  );
}

export const DiffBlock = memo(function DiffBlock({ diff }: { diff: string }) {
  // Highlighting a long diff is the costliest part of a tool view: do it once per diff.
  const html = useMemo(() => highlightCode(revealInvisibleInText(diff), "diff"), [diff]);
  return (
    <pre className="tool-diff" aria-label="Diff">
      <code dangerouslySetInnerHTML={{ __html: html }} />
    </pre>
  );
});

const TODO_MARK: Record<TodoItem["status"], string> = {
  pending: "☐",
  in_progress: "◐",
  completed: "☑",
  cancelled: "☒",
};

export function TodoList({ todos }: { todos: TodoItem[] }) {
  if (todos.length === 0) return <p className="tool-note">The todo list is empty.</p>;
  return (
    <ul className="todo-list" aria-label="Todo list">
      {todos.map((todo, index) => (
        <li key={index} className={`todo todo-${todo.status}`}>
          <span className="todo-mark" aria-hidden="true">
            {TODO_MARK[todo.status]}
          </span>
          <span className="todo-content">{todo.content}</span>
          <span className="visually-hidden">({todo.status.replace("_", " ")})</span>
        </li>
      ))}
    </ul>
  );
}
