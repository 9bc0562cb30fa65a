// The github_push tool: the agent sends the workspace's changes to the GitHub repository it was
// opened from as a pull request. It asks every time (an "always" answer grants nothing further:
// each push is a new, visible change on GitHub). The work itself is a port the UI wires to the
// transfer layer's GitHub client, which the agent layer does not import.
import { z } from "zod";
import description from "../../../prompts/tools/github_push.md?raw";
import type { ToolDefinition } from "./tool";

export interface GitHubPushRequest {
  branch: string;
  title: string;
  body: string;
  fork: boolean;
}

export interface GitHubPushOutcome {
  repository: string;
  branch: string;
  pullRequestUrl: string;
  pullRequestNumber: number;
  /** "modified src/a.ts", "deleted old.ts", … */
  changes: string[];
}

export interface GitHubPushPort {
  /** "owner/repo" and the ref the workspace was opened from, or undefined when it was not. */
  upstream(): { repository: string; ref: string; commit: string } | undefined;
  push(request: GitHubPushRequest, signal: AbortSignal): Promise<GitHubPushOutcome>;
}

const parameters = z.object({
  title: z.string().min(1).describe("The pull request's title"),
  body: z.string().describe("The pull request's description (markdown)"),
  branch: z.string().min(1).describe("The new branch's name, e.g. webcode/fix-login"),
  fork: z.boolean().default(false).describe("Push to the user's fork (only after the user agreed)"),
});

export function createGitHubPushTool(port: GitHubPushPort): ToolDefinition<typeof parameters> {
  return {
    id: "github_push",
    description,
    parameters,
    async execute(args, context) {
      const upstream = port.upstream();
      if (!upstream) throw new Error("This workspace was not opened from GitHub, so there is no repository to push to. Ask the user to open the repository with Open from GitHub first.");
      await context.ask({
        permission: "github_push",
        patterns: [upstream.repository],
        // Nothing for "always" to cover: the next push asks again.
        always: [],
        metadata: {
          detail: `Push to ${args.fork ? `a fork of ${upstream.repository}` : upstream.repository}: a new branch "${args.branch}" from ${upstream.commit.slice(0, 7)} (${upstream.ref}) with the workspace's changes, and a pull request titled "${args.title}". Description:\n${args.body}`,
          ...args,
        },
      });
      const outcome = await port.push({ branch: args.branch, title: args.title, body: args.body, fork: args.fork }, context.abort);
      return {
        title: `Pull request #${outcome.pullRequestNumber} on ${upstream.repository}`,
        output: `Opened pull request #${outcome.pullRequestNumber}: ${outcome.pullRequestUrl}\nBranch ${outcome.branch} in ${outcome.repository}, ${outcome.changes.length} change(s):\n${outcome.changes.join("\n")}`,
        metadata: { ...outcome },
      };
    },
  };
}
