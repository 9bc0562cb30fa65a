// task, todowrite and question: they hand their work to the session through the ToolContext.
import { afterEach, describe, expect, it } from "vitest";
import { runTool, InvalidToolInputError } from "../../src/agent/tools/wrapper";
import { createTaskTool, DEFAULT_SUBAGENTS } from "../../src/agent/tools/task";
import { todowriteTool } from "../../src/agent/tools/todowrite";
import { questionTool } from "../../src/agent/tools/question";
import { createToolHarness, type ToolHarness } from "../support/tool-context";

let harness: ToolHarness;
afterEach(async () => harness?.dispose());

describe("task", () => {
  it("lists the subagents in its description", () => {
    const tool = createTaskTool([{ name: "reviewer", description: "Reviews diffs." }]);
    expect(tool.description).toContain("- reviewer: Reviews diffs.");
    expect(createTaskTool().description).toContain(`- explore: ${DEFAULT_SUBAGENTS[1]!.description}`);
  });

  it("runs the subagent and returns its text with the task id", async () => {
    harness = await createToolHarness({ subagent: (r) => ({ sessionId: "ses_child1", text: `  found it for ${r.subagentType}  ` }) });
    const result = await runTool(createTaskTool(), { description: "Find the router", prompt: "Where is routing set up?", subagent_type: "explore" }, harness.context);
    expect(harness.subagentCalls).toEqual([{ description: "Find the router", prompt: "Where is routing set up?", subagentType: "explore" }]);
    expect(result.output).toBe("<task_id>ses_child1</task_id>\n\n<task_result>\nfound it for explore\n</task_result>");
    expect(result.metadata).toMatchObject({ sessionId: "ses_child1", subagent: "explore" });
  });

  it("passes taskId to resume and refuses unknown subagents", async () => {
    harness = await createToolHarness({ subagents: [{ name: "custom", description: "mine" }] });
    await runTool(createTaskTool(), { description: "Go on", prompt: "continue", subagent_type: "custom", taskId: "ses_old" }, harness.context);
    expect(harness.subagentCalls[0]!.taskId).toBe("ses_old");
    await expect(runTool(createTaskTool(), { description: "x", prompt: "y", subagent_type: "general" }, harness.context)).rejects.toThrow('Unknown subagent_type "general". Available: custom.');
  });
});

describe("todowrite", () => {
  it("replaces the todo list and echoes it", async () => {
    harness = await createToolHarness();
    const todos = [
      { content: "Read the code", status: "completed" as const, priority: "high" as const },
      { content: "Fix the bug", status: "in_progress" as const, priority: "high" as const },
      { content: "Write a test", status: "pending" as const, priority: "medium" as const },
    ];
    const result = await runTool(todowriteTool, { todos }, harness.context);
    expect(harness.todos).toEqual([todos]);
    expect(result.title).toBe("2 todos open");
    expect(result.output).toBe("[x] Read the code (high)\n[~] Fix the bug (high)\n[ ] Write a test (medium)");
  });

  it("rejects an unknown status through the wrapper", async () => {
    harness = await createToolHarness();
    await expect(runTool(todowriteTool, { todos: [{ content: "x", status: "done", priority: "high" }] }, harness.context)).rejects.toBeInstanceOf(InvalidToolInputError);
  });
});

describe("question", () => {
  it("asks the user and returns the answers", async () => {
    harness = await createToolHarness({ answers: () => [["TypeScript"], ["Vitest", "Playwright"]] });
    const questions = [
      { question: "Which language?", header: "Language", options: [{ label: "TypeScript", description: "typed" }, { label: "JavaScript", description: "untyped" }] },
      { question: "Which test tools?", header: "Tests", options: [{ label: "Vitest", description: "" }, { label: "Playwright", description: "" }], multiple: true },
    ];
    const result = await runTool(questionTool, { questions }, harness.context);
    expect(harness.questions[0]!.map((q) => q.multiple)).toEqual([false, true]);
    expect(result.output).toBe('The user answered:\n"Which language?" = "TypeScript"\n"Which test tools?" = "Vitest", "Playwright"\nContinue with these answers in mind.');
  });

  it("marks unanswered questions and refuses long headers", async () => {
    harness = await createToolHarness({ answers: () => [[]] });
    const result = await runTool(questionTool, { questions: [{ question: "Q?", header: "H", options: [] }] }, harness.context);
    expect(result.output).toContain('"Q?" = (no answer)');
    await expect(runTool(questionTool, { questions: [{ question: "Q?", header: "x".repeat(31), options: [] }] }, harness.context)).rejects.toBeInstanceOf(InvalidToolInputError);
  });
});
