// The todowrite tool: replaces the session's todo list (shown in the UI) and echoes it back.
import { z } from "zod";
import description from "../../../prompts/tools/todowrite.md?raw";
import type { ToolDefinition } from "./tool";

const parameters = z.object({
  todos: z.array(
    z.object({
      content: z.string().min(1),
      status: z.enum(["pending", "in_progress", "completed", "cancelled"]),
      priority: z.enum(["high", "medium", "low"]),
    }),
  ),
});

const MARKS = { pending: "[ ]", in_progress: "[~]", completed: "[x]", cancelled: "[-]" } as const;

export const todowriteTool: ToolDefinition<typeof parameters> = {
  id: "todowrite",
  description,
  parameters,
  async execute(args, context) {
    await context.setTodos(args.todos);
    const open = args.todos.filter((t) => t.status === "pending" || t.status === "in_progress").length;
    const lines = args.todos.map((t) => `${MARKS[t.status]} ${t.content} (${t.priority})`);
    return {
      title: `${open} todo${open === 1 ? "" : "s"} open`,
      output: lines.length > 0 ? lines.join("\n") : "The todo list is empty.",
      metadata: { todos: args.todos },
    };
  },
};
