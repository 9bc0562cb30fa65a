// The contract between the agent loop and its tools. A tool is a small object (id, description,
// zod parameters, execute); the shared wrapper (wrapper.ts) does validation, truncation, timing and
// error capture, so each tool file only does its own work.
import type { z } from "zod";
import type { Runtime } from "../../runtime";
import type { FileAttachment, ModelRef, TodoItem } from "../../storage";
import type { CodeIntelligence } from "./code-intelligence";

export interface ToolResult {
  title: string;
  output: string;
  metadata: Record<string, unknown>;
  /** Images or files for the model (e.g. an image read by the read tool, for vision models). */
  attachments?: FileAttachment[];
}

/** A permission request from a tool (docs/agent.md, "Permissions"). Resolves when allowed; rejects when rejected. */
export interface PermissionRequest {
  /** "edit", "bash", "read", "external_directory", "webfetch", "doom_loop", ... */
  permission: string;
  /** What is asked for: paths for edit/read, the command text for bash. */
  patterns: string[];
  /** Patterns that an "always" reply allows for the rest of the session. */
  always: string[];
  /** Shown on the permission card: the diff for edits, the command for bash. */
  metadata: Record<string, unknown>;
}

export interface QuestionOption {
  label: string;
  description: string;
}

export interface Question {
  question: string;
  header: string;
  options: QuestionOption[];
  multiple: boolean;
}

export interface SubagentRequest {
  description: string;
  prompt: string;
  subagentType: string;
  taskId?: string;
}

export interface SubagentResult {
  sessionId: string;
  text: string;
}

/** Tracks when this session last read each file, for the read-before-write/edit check. */
export interface FileTimes {
  /** Record that the session read `path` (its mtime at the time of reading). */
  markRead(path: string, mtime: number): void;
  /** The mtime recorded when the session last read `path`, or undefined if never read. */
  lastRead(path: string): number | undefined;
}

export interface ToolContext {
  sessionId: string;
  messageId: string;
  callId: string;
  agent: string;
  model: ModelRef & { supportsImages: boolean };
  runtime: Runtime;
  abort: AbortSignal;
  fileTimes: FileTimes;
  /** Asks for a permission (docs/agent.md, "Permissions"); throws PermissionRejectedError when the user rejects. */
  ask(request: PermissionRequest): Promise<void>;
  /**
   * What ask() would decide for one pattern, without asking anyone (rules, workspace limits and the
   * session's grants). For tools that return the content of many files (grep): they skip files that
   * would need an ask instead of asking for each.
   */
  permissionFor(permission: string, pattern: string): "allow" | "ask" | "deny";
  /** Live updates of the running tool part: a title, metadata such as streamed bash output. */
  update(update: { title?: string; metadata?: Record<string, unknown> }): void;
  /** AGENTS.md reminder paths already in this session's context (read tool adds to it). */
  instructionsLoaded: Set<string>;
  askQuestions(questions: Question[]): Promise<string[][]>;
  runSubagent(request: SubagentRequest): Promise<SubagentResult>;
  setTodos(todos: TodoItem[]): Promise<void>;
  /** The workspace's code service (diagnostics after edits, the code tool); absent when the runtime has none. */
  code?: CodeIntelligence;
  /** The subagents the task tool may start (name, description); when absent the task tool's own list. */
  subagents?: ReadonlyArray<{ name: string; description: string }>;
}

export interface ToolDefinition<Schema extends z.ZodType = z.ZodType> {
  id: string;
  description: string;
  parameters: Schema;
  /**
   * The JSON schema the model sees, for tools whose schema comes from elsewhere (MCP servers);
   * `parameters` then only checks the input's outer shape. Default: derived from `parameters`.
   */
  inputJsonSchema?: Record<string, unknown>;
  /**
   * The permission the tool asks for when it is not its id (MCP tools ask "mcp" with their name as
   * the pattern): a rule denying it for the tool's name keeps the tool from being offered.
   */
  permission?: string;
  execute(args: z.infer<Schema>, context: ToolContext): Promise<ToolResult>;
}

/**
 * Thrown by ToolContext.ask when the user rejects (docs/agent.md, "Permissions"). A bare reject stops the turn; a reject
 * with a message is the user telling the agent what to do instead: the message is the call's result
 * and the turn goes on with it.
 */
export class PermissionRejectedError extends Error {
  readonly feedback: string | undefined;

  constructor(
    readonly permission: string,
    feedback?: string,
  ) {
    const said = feedback?.trim() || undefined;
    super(said ? `The user rejected this ${permission} call and said: ${said}` : `The user rejected permission to use this ${permission} call.`);
    this.name = "PermissionRejectedError";
    this.feedback = said;
  }

  /** Whether the rejection ends the turn (no message for the agent to act on). */
  get stopsTurn(): boolean {
    return this.feedback === undefined;
  }
}

/** Thrown by ToolContext.ask when a rule denies the call outright. */
export class PermissionDeniedError extends Error {
  constructor(
    readonly permission: string,
    readonly pattern: string,
  ) {
    super(`A permission rule denies ${permission} for "${pattern}". Do not retry this call; choose another approach or ask the user.`);
    this.name = "PermissionDeniedError";
  }
}
