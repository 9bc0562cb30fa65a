// The agent sees what it breaks, in the built app: a scripted model writes two TypeScript files,
// edits one so that it no longer type-checks, and asks the code tool where a symbol is defined. The
// errors come from the code service's own worker (no editor tab of those files is open) and reach
// the model in the edit's result; the definition is found across the two files.
import { describe, expect, it } from "vitest";
import { agentRequests, chat, messagesOf, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

const MATH = "export function double(n: number): number {\n  return n * 2;\n}\n";
const MAIN = 'import { double } from "./math";\n\nexport const four: number = double(2);\n';

/** The tool result the model got for the call with `id`, in a chat-completions request. */
function toolResult(request: Parameters<typeof messagesOf>[0], id: string): string {
  const message = messagesOf(request).find((m) => m.role === "tool" && m.tool_call_id === id);
  return typeof message?.content === "string" ? message.content : JSON.stringify(message?.content ?? "");
}

describe("diagnostics and the code tool in the browser", () => {
  it("an edit that breaks the types returns the error to the model, and the code tool finds a definition in another file", async () => {
    const server = await browser.startServer(
      scripted([
        { chunks: [{ type: "tool-call", id: "call_math", name: "write", input: { filePath: "src/math.ts", content: MATH } }] },
        { chunks: [{ type: "tool-call", id: "call_main", name: "write", input: { filePath: "src/main.ts", content: MAIN } }] },
        { chunks: [{ type: "tool-call", id: "call_edit", name: "edit", input: { filePath: "src/math.ts", oldString: "(n: number)", newString: "(n: string)" } }] },
        { chunks: [{ type: "tool-call", id: "call_code", name: "code", input: { operation: "definition", filePath: "src/main.ts", line: 3, column: 30 } }] },
        { chunks: [{ type: "text", text: "The edit broke the types; I will fix it next." }] },
      ]),
    );
    const app = await browser.openWithProvider(server, { edits: "allow" });
    const { page } = app;
    await sendMessage(page, "Add a double helper, then change its parameter to a string.");
    await expect.poll(() => transcript(page), { timeout: 60_000 }).toContain("The edit broke the types");
    await expect.poll(() => chat(page).getByRole("button", { name: "Send" }).count(), { timeout: 10_000 }).toBe(1);

    const requests = agentRequests(server.requests);
    expect(requests).toHaveLength(5);
    // The code tool is offered once the workspace has TypeScript or JavaScript files (the page has a
    // code service): not in the first request of this empty workspace, then from the first write on.
    const toolNames = (index: number) => (requests[index]!.body as { tools: Array<{ function: { name: string } }> }).tools.map((t) => t.function.name);
    expect(toolNames(0)).not.toContain("code");
    expect(toolNames(1)).toContain("code");
    expect(toolNames(3)).toContain("code");
    expect(toolResult(requests[1]!, "call_math")).toBe("Created src/math.ts.\n\n<diagnostics>\nsrc/math.ts: no errors.\n</diagnostics>");
    expect(toolResult(requests[2]!, "call_main")).toBe("Created src/main.ts.\n\n<diagnostics>\nsrc/main.ts: no errors.\n</diagnostics>");
    // The request after the edit carries the error it introduced, in the file that imports the edited one.
    const edit = toolResult(requests[3]!, "call_edit");
    expect(edit).toContain("Edited src/math.ts.");
    expect(edit).toContain("New errors in src/math.ts:\n  src/math.ts:2:10 The left-hand side of an arithmetic operation must be of type 'any', 'number', 'bigint' or an enum type. [TS2362]");
    expect(edit).toContain("New errors in src/main.ts, which imports src/math.ts:\n  src/main.ts:3:36 Argument of type 'number' is not assignable to parameter of type 'string'. [TS2345]");
    expect(toolResult(requests[4]!, "call_code")).toBe("1 result:\nsrc/math.ts:1:17  export function double(n: string): number {");
    expect(app.errors).toEqual([]);
  });

  it("a broken opencode.json: the write's result has its JSON error, and the app warns with file and line and goes on", async () => {
    const broken = '{\n  "permission": { "edit": "deny" }\n  "agent": {}\n}\n';
    const server = await browser.startServer(
      scripted([
        { chunks: [{ type: "tool-call", id: "call_config", name: "write", input: { filePath: "opencode.json", content: broken } }] },
        { chunks: [{ type: "text", text: "Wrote the config." }] },
        { chunks: [{ type: "text", text: "Still here." }] },
      ]),
    );
    const app = await browser.openWithProvider(server, { edits: "allow" });
    const { page } = app;
    await sendMessage(page, "Add an OpenCode config.");
    await expect.poll(() => transcript(page), { timeout: 60_000 }).toContain("Wrote the config.");
    const requests = agentRequests(server.requests);
    // Monaco's JSON validator in the code service's worker: the missing comma on line 3.
    expect(toolResult(requests[1]!, "call_config")).toMatch(/^Created opencode\.json\.\n\n<diagnostics>\nNew errors in opencode\.json:\n {2}opencode\.json:3:3 /);

    // The next turn reloads the agents: the config's problem is shown with file, line and column, and the turn runs.
    await expect.poll(() => chat(page).getByRole("button", { name: "Send" }).count(), { timeout: 10_000 }).toBe(1);
    await sendMessage(page, "Thanks.");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Still here.");
    const warning = page.getByRole("alert").filter({ hasText: "opencode.json:3:3" });
    await expect.poll(() => warning.count(), { timeout: 10_000 }).toBe(1);
    expect(await warning.innerText()).toContain("This config file was skipped");
    expect(app.errors).toEqual([]);
  });
});
