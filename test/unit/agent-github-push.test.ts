// The github_push tool: asks every time (its "always" covers nothing), names the repository,
// branch and title, and reports the pull request; refuses in a workspace not opened from GitHub.
import { describe, expect, it } from "vitest";
import { createGitHubPushTool, type GitHubPushRequest } from "../../src/agent/tools";
import { DEFAULT_RULES, decide } from "../../src/agent/permission";
import { PermissionRejectedError } from "../../src/agent/tools/tool";
import { createToolHarness } from "../support/tool-context";

const upstream = { repository: "octo/hello", ref: "main", commit: "0123456789abcdef0123456789abcdef01234567" };

describe("github_push tool", () => {
  it("asks by default (the defaults allow most tools)", () => {
    expect(decide("github_push", "octo/hello", DEFAULT_RULES)).toBe("ask");
  });

  it("asks with the repository, branch and title, then pushes and reports the pull request", async () => {
    const pushed: GitHubPushRequest[] = [];
    const tool = createGitHubPushTool({
      upstream: () => upstream,
      push: async (request) => {
        pushed.push(request);
        return { repository: "octo/hello", branch: request.branch, pullRequestUrl: "https://github.com/octo/hello/pull/7", pullRequestNumber: 7, changes: ["modified src/a.ts"] };
      },
    });
    const harness = await createToolHarness();
    try {
      const args = tool.parameters.parse({ title: "Fix a", body: "Because.", branch: "webcode/fix-a" });
      const result = await tool.execute(args, harness.context);
      expect(harness.asks).toHaveLength(1);
      expect(harness.asks[0]).toMatchObject({ permission: "github_push", patterns: ["octo/hello"], always: [] });
      expect(String(harness.asks[0]!.metadata.detail)).toContain('a new branch "webcode/fix-a" from 0123456 (main)');
      expect(pushed).toEqual([{ branch: "webcode/fix-a", title: "Fix a", body: "Because.", fork: false }]);
      expect(result.output).toContain("Opened pull request #7: https://github.com/octo/hello/pull/7");
      // A second push asks again.
      await tool.execute(args, harness.context);
      expect(harness.asks).toHaveLength(2);
    } finally {
      await harness.dispose();
    }
  });

  it("pushes nothing when the user rejects, and refuses outside a GitHub workspace", async () => {
    let pushes = 0;
    const port = { upstream: () => upstream, push: () => Promise.reject(new Error(`pushed ${++pushes}`)) };
    const harness = await createToolHarness({ onAsk: () => new PermissionRejectedError("github_push") });
    try {
      const args = createGitHubPushTool(port).parameters.parse({ title: "t", body: "", branch: "b" });
      await expect(createGitHubPushTool(port).execute(args, harness.context)).rejects.toBeInstanceOf(PermissionRejectedError);
      expect(pushes).toBe(0);
      await expect(createGitHubPushTool({ ...port, upstream: () => undefined }).execute(args, harness.context)).rejects.toThrow(/not opened from GitHub/);
    } finally {
      await harness.dispose();
    }
  });
});
