// `&` in the browser runtime's shell. just-bash parses a background statement (`node server.js &`)
// but runs it in the foreground, so a server would hold the command line until it ends. Before a
// script runs, this transform (just-bash's AST hook, as output-routing.ts) turns each top-level
// `LIST &` into a call of BACKGROUND_COMMAND with the statement's text; the shell host runs that
// text as a run of its own, not awaited (bash-host.ts), with the working folder and exported
// environment of that moment, as bash's subshell for a job has them. Nested `&` (inside a function,
// a loop, a subshell) is left as just-bash runs it.
import type { ScriptNode, StatementNode } from "just-bash";

export const BACKGROUND_COMMAND = "__webcode_background";

function backgroundCall(statement: StatementNode): StatementNode {
  const text = statement.sourceText!.replace(/&\s*$/, "").trim();
  const word = (value: string) => ({ type: "Word" as const, parts: [{ type: "SingleQuoted" as const, value }] });
  return {
    type: "Statement",
    pipelines: [
      {
        type: "Pipeline",
        commands: [{ type: "SimpleCommand", assignments: [], name: word(BACKGROUND_COMMAND), args: [word(text)], redirections: [] }],
        negated: false,
      },
    ],
    operators: [],
    background: false,
  } as StatementNode;
}

/** just-bash's TransformPlugin shape (the type itself is not exported by the browser bundle). */
export const backgroundJobsPlugin = {
  name: "webcode-background-jobs",
  transform(context: { ast: ScriptNode }): { ast: ScriptNode } {
    if (!context.ast.statements.some((statement) => statement.background && statement.sourceText)) return { ast: context.ast };
    return { ast: { ...context.ast, statements: context.ast.statements.map((statement) => (statement.background && statement.sourceText ? backgroundCall(statement) : statement)) } };
  },
};
