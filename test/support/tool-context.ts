// A ToolContext for tests over the real browser runtime (just-bash over WorkspaceFiles on
// fake-indexeddb): records permission asks, live updates, todos, questions and subagent calls,
// and lets a test reject asks, answer questions or script subagent results.
import { createBrowserRuntime } from "../../src/runtime/browser";
import { WorkspaceFiles, createWorkspace, type ExecOptions, type ExecResult, type Runtime } from "../../src/runtime";
import { openStorage, type Storage, type TodoItem } from "../../src/storage";
import { createFileTimes } from "../../src/agent/tools/file-times";
import { DEFAULT_RULES, decide } from "../../src/agent/permission";
import type { PermissionRequest, Question, SubagentRequest, SubagentResult, ToolContext } from "../../src/agent/tools/tool";

export interface ToolHarnessOptions {
  /** Files to create before the test (text or bytes). */
  files?: Record<string, string | Uint8Array>;
  supportsImages?: boolean;
  /** What context.permissionFor answers without asking (default: the default rules). */
  permissionFor?: ToolContext["permissionFor"];
  /** Decides each permission ask: return an Error to throw it (deny/reject), undefined to allow. */
  onAsk?: (request: PermissionRequest) => Error | undefined | Promise<Error | undefined>;
  answers?: (questions: Question[]) => string[][];
  subagent?: (request: SubagentRequest) => SubagentResult | Promise<SubagentResult>;
  subagents?: ToolContext["subagents"];
  /** Replaces runtime.exec (scripted commands); the real file system stays. */
  exec?: (command: string, options: ExecOptions) => Promise<ExecResult>;
  /** The code service for diagnostics and the code tool (default: none), or one made over the workspace's files. */
  code?: ToolContext["code"] | ((files: WorkspaceFiles) => NonNullable<ToolContext["code"]>);
}

export interface ToolHarness {
  storage: Storage;
  files: WorkspaceFiles;
  runtime: Runtime;
  context: ToolContext;
  abort: AbortController;
  asks: PermissionRequest[];
  updates: Array<{ title?: string; metadata?: Record<string, unknown> }>;
  todos: TodoItem[][];
  questions: Question[][];
  subagentCalls: SubagentRequest[];
  execCalls: Array<{ command: string; options: ExecOptions }>;
  dispose(): Promise<void>;
}

let counter = 0;

export async function createToolHarness(options: ToolHarnessOptions = {}): Promise<ToolHarness> {
  const storage = await openStorage({ name: `tools-test-${Date.now()}-${counter++}` });
  const workspace = await createWorkspace(storage, `Tools ${counter}`, { seedReadme: false });
  const files = await WorkspaceFiles.open(storage, workspace.id);
  for (const [path, data] of Object.entries(options.files ?? {})) await files.writeFile(path, data);
  const real = createBrowserRuntime(files);
  const execCalls: ToolHarness["execCalls"] = [];
  const runtime: Runtime = {
    kind: real.kind,
    capabilities: real.capabilities,
    fs: real.fs,
    exec: (command, execOptions = {}) => {
      execCalls.push({ command, options: execOptions });
      return options.exec ? options.exec(command, execOptions) : real.exec(command, execOptions);
    },
    openShell: (size) => real.openShell(size),
    onServerReady: (listener) => real.onServerReady(listener),
    dispose: () => real.dispose(),
  };
  const abort = new AbortController();
  const asks: PermissionRequest[] = [];
  const updates: ToolHarness["updates"] = [];
  const todos: TodoItem[][] = [];
  const questions: Question[][] = [];
  const subagentCalls: SubagentRequest[] = [];
  const context: ToolContext = {
    sessionId: "ses_test",
    messageId: "msg_test",
    callId: "call_test",
    agent: "build",
    model: { providerId: "test", modelId: "test-model", supportsImages: options.supportsImages ?? false },
    runtime,
    abort: abort.signal,
    fileTimes: createFileTimes(),
    instructionsLoaded: new Set(),
    async ask(request) {
      asks.push(request);
      const error = await options.onAsk?.(request);
      if (error) throw error;
    },
    permissionFor: options.permissionFor ?? ((permission, pattern) => decide(permission, pattern, DEFAULT_RULES)),
    update(update) {
      updates.push(update);
    },
    async askQuestions(list) {
      questions.push(list);
      return options.answers ? options.answers(list) : list.map((q) => [q.options[0]?.label ?? ""]);
    },
    async runSubagent(request) {
      subagentCalls.push(request);
      return options.subagent ? options.subagent(request) : { sessionId: "ses_child", text: "done" };
    },
    async setTodos(list) {
      todos.push(list);
    },
    ...(options.subagents && { subagents: options.subagents }),
    ...(options.code && { code: typeof options.code === "function" ? options.code(files) : options.code }),
  };
  return {
    storage,
    files,
    runtime,
    context,
    abort,
    asks,
    updates,
    todos,
    questions,
    subagentCalls,
    execCalls,
    async dispose() {
      real.dispose();
      context.code?.dispose?.();
      await files.flush().catch(() => undefined);
      files.dispose();
      storage.close();
    },
  };
}
