// The question tool: asks the user one or more questions in the chat panel and returns the answers.
import { z } from "zod";
import description from "../../../prompts/tools/question.md?raw";
import type { ToolDefinition } from "./tool";

/** Headers are shown as chips: keep them short. */
export const QUESTION_HEADER_MAX = 30;

const parameters = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(1),
        header: z.string().max(QUESTION_HEADER_MAX),
        options: z.array(z.object({ label: z.string().min(1), description: z.string() })),
        multiple: z.boolean().optional(),
      }),
    )
    .min(1),
});

export const questionTool: ToolDefinition<typeof parameters> = {
  id: "question",
  description,
  parameters,
  async execute(args, context) {
    const questions = args.questions.map((q) => ({ ...q, multiple: q.multiple ?? false }));
    const answers = await context.askQuestions(questions);
    const lines = questions.map((q, i) => {
      const answer = answers[i] ?? [];
      return `"${q.question}" = ${answer.length > 0 ? answer.map((a) => `"${a}"`).join(", ") : "(no answer)"}`;
    });
    return {
      title: questions.length === 1 ? questions[0]!.header : `${questions.length} questions`,
      output: `The user answered:\n${lines.join("\n")}\nContinue with these answers in mind.`,
      metadata: { answers },
    };
  },
};
