// just-bash words some of its errors for the developers who embed it ("increase
// executionLimits.maxLoopIterations", "use the Node.js bundle"). People at the terminal cannot act
// on that, so those endings are rewritten here into what happened and what they can do.
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
