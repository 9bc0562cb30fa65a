// just-bash words some of its errors for the developers who embed it ("increase
// executionLimits.maxLoopIterations", "use the Node.js bundle"). People at the terminal cannot act
// on that, so those endings are rewritten here into what happened and what they can do.
import { defineCommand, type CustomCommand } from "just-bash";
const REWRITES: Array<[RegExp, string]> = [
  // "for loop: too many iterations (10000), increase executionLimits.maxLoopIterations"
  [/, increase executionLimits\.\w+/g, " (a limit of the browser runtime; split the work into smaller steps)"],
  // "bash: tar: command not available in browser environments. Exclude 'tar' from your commands or use the Node.js bundle."
  [/command not available in browser environments\. Exclude '[^']*' from your commands or use the Node\.js bundle\./g, "not available in the browser runtime"],
  [/Network access not configured\. Enable network in Bash options\./g, "network access is not available here"],
];

export function userFacingErrors(stderr: string): string {
  let text = stderr;
  for (const [pattern, replacement] of REWRITES) text = text.replace(pattern, replacement);
  return text;
}

/** just-bash's html-to-markdown, whose help calls it a "BashEnv extension" (just-bash's old name). */
export function htmlToMarkdownCommand(): CustomCommand {
  return defineCommand("html-to-markdown", async (args, ctx) => {
    if (!ctx.origCommand) return { stdout: "", stderr: "html-to-markdown is not available in the browser runtime.\n", exitCode: 127 };
    const result = await ctx.origCommand(args);
    return { ...result, stdout: result.stdout.replace(/\(BashEnv extension\)/g, "(browser runtime extension)").replace(/non-standard BashEnv extension command/g, "non-standard command of the browser runtime") };
  });
}
