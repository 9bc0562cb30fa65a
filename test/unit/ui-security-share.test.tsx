// @vitest-environment happy-dom
// The Share dialog looks for the API keys configured in Settings (any format, and credential
// headers), leaves them out of the link by default, and never puts them anywhere in it.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { saveProviderConfigs, type ProviderConfig } from "../../src/providers";
import { WorkspaceFiles, createWorkspace } from "../../src/runtime";
import { RECORD_VERSION, openStorage, type MessageRecord, type PartRecord, type SessionRecord } from "../../src/storage";
import { decodeShareLink } from "../../src/transfer";
import { McpSettings } from "../../src/ui/settings/mcp-settings";
import { ShareDialog, configuredSecrets } from "../../src/ui/share";
import { render, settle } from "./ui-chat-render";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Formats with no recognisable prefix (Mistral, Together, a proxy token), built from pieces.
const MISTRAL_KEY = "Mq7" + "Vt2xP9kLw4Zr8Nb3Yc6Hd1Jf5Gs0Ua";
const PROXY_TOKEN = "tok" + "9f8e7d6c5b4a39281706f5e4d3c2b1a0";

function provider(rest: Partial<ProviderConfig>): ProviderConfig {
  return { id: "p", kind: "openai-compatible", name: "P", models: [], ...rest } as ProviderConfig;
}

describe("configured secrets", () => {
  it("are the API keys and the values (and bearer tokens) of credential-like headers", () => {
    const secrets = configuredSecrets([
      provider({ id: "mistral", apiKey: ` ${MISTRAL_KEY} ` }),
      provider({ id: "proxy", headers: { "X-Proxy-Authorization": `Bearer ${PROXY_TOKEN}`, "X-Team": "frontend", "Content-Type": "application/json" } }),
      provider({ id: "local" }),
    ]);
    expect(secrets).toEqual([MISTRAL_KEY, `Bearer ${PROXY_TOKEN}`, PROXY_TOKEN]);
  });
});

describe("ShareDialog with configured keys", () => {
  it("finds the configured keys in the transcript and files and keeps them out of the link", async () => {
    const storage = await openStorage({ name: `ui-security-share-${Date.now()}` });
    await saveProviderConfigs(storage, [
      provider({ id: "mistral", name: "Mistral", apiKey: MISTRAL_KEY }),
      provider({ id: "proxy", name: "Proxy", headers: { "X-Proxy-Auth": `Bearer ${PROXY_TOKEN}` } }),
    ]);
    const workspace = await createWorkspace(storage, "Demo", { seedReadme: false });
    const files = await WorkspaceFiles.open(storage, workspace.id);
    files.writeSync("src/app.ts", "export const ok = 1;\n");
    files.writeSync("src/client.ts", `const key = "${MISTRAL_KEY}";\n`);
    await files.flush();
    cleanups.push(() => {
      files.dispose();
      storage.close();
    });
    const now = Date.now();
    const model = { providerId: "mistral", modelId: "mistral-large" };
    const usage = { input: 1, output: 1, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
    const session: SessionRecord = { v: RECORD_VERSION, id: "ses_1", workspaceId: workspace.id, title: "Debug", createdAt: now, updatedAt: now, agent: "build", model, permission: [], tokens: usage, cost: 0, todos: [] };
    const messages: MessageRecord[] = [
      { v: RECORD_VERSION, id: "msg_1", sessionId: "ses_1", role: "user", createdAt: now, agent: "build", model },
      { v: RECORD_VERSION, id: "msg_2", sessionId: "ses_1", role: "assistant", createdAt: now + 1, parentId: "msg_1", agent: "build", model, tokens: usage, cost: 0, error: { name: "APIError", message: "401", action: `The key ${MISTRAL_KEY} was refused.` } },
    ];
    const parts = [
      { v: RECORD_VERSION, id: "prt_1", sessionId: "ses_1", messageId: "msg_1", type: "text", text: `Why does curl -H "X-Proxy-Auth: Bearer ${PROXY_TOKEN}" fail?` },
    ] as PartRecord[];
    await storage.writeBatch({ sessions: [session], messages, parts });

    const view = await render(<ShareDialog storage={storage} workspace={workspace} flush={async () => {}} linkBase="https://webcode.test/" onClose={() => {}} copyText={async () => {}} />);
    cleanups.push(() => view.unmount());
    let field: HTMLInputElement | null = null;
    for (let i = 0; i < 200 && !field; i++) {
      await settle();
      field = view.container.querySelector<HTMLInputElement>("input.share-link");
    }
    expect(field).not.toBeNull();
    const dialog = view.container.querySelector('[role="dialog"]')!;
    const findings = Array.from(dialog.querySelectorAll(".share-finding")).map((l) => l.textContent);
    expect(findings).toEqual([
      expect.stringMatching(/^Leave out src\/client\.ts: API key from your Settings Mq7Vt2… \(33 characters\)$/),
      "Redact key-like strings everywhere in the share (2 found in the transcript)",
    ]);
    expect(dialog.textContent).not.toContain(MISTRAL_KEY);
    expect(dialog.textContent).not.toContain(PROXY_TOKEN);
    const link = field!.value;
    const restored = decodeShareLink(link);
    const json = JSON.stringify(restored.envelope) + JSON.stringify(restored.entries);
    expect(json).not.toContain(MISTRAL_KEY);
    expect(json).not.toContain(PROXY_TOKEN);
    expect(restored.entries.map((e) => e.path)).toEqual(["src/app.ts"]);
    expect(json).toContain("[redacted configured-key]");
  });

  it("finds an MCP server's bearer token and OAuth token in the transcript and keeps them out of the link", async () => {
    const MCP_TOKEN = "mcp" + "tok-" + "Q7w8E9r0T1y2U3i4O5p6";
    const ACCESS = "acc" + "ess-" + "A1s2D3f4G5h6J7k8L9z0";
    const storage = await openStorage({ name: `ui-security-share-mcp-${Date.now()}` });
    const mcp = new McpSettings(storage);
    await mcp.load();
    await mcp.save({ id: "m", name: "tools", url: "https://mcp.example.test/mcp", transport: "auto", enabled: true, timeoutMs: 60_000, source: { kind: "user" }, secret: { headers: { Authorization: `Bearer ${MCP_TOKEN}` } } });
    await mcp.updateOAuth("m", () => ({ tokens: { access_token: ACCESS, token_type: "Bearer" } }));
    const workspace = await createWorkspace(storage, "Demo", { seedReadme: false });
    const files = await WorkspaceFiles.open(storage, workspace.id);
    files.writeSync("src/app.ts", "export const ok = 1;\n");
    await files.flush();
    cleanups.push(() => {
      files.dispose();
      storage.close();
    });
    const now = Date.now();
    const model = { providerId: "p", modelId: "m" };
    const usage = { input: 1, output: 1, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
    const session: SessionRecord = { v: RECORD_VERSION, id: "ses_1", workspaceId: workspace.id, title: "MCP", createdAt: now, updatedAt: now, agent: "build", model, permission: [], tokens: usage, cost: 0, todos: [] };
    const messages: MessageRecord[] = [{ v: RECORD_VERSION, id: "msg_1", sessionId: "ses_1", role: "user", createdAt: now, agent: "build", model }];
    const parts = [{ v: RECORD_VERSION, id: "prt_1", sessionId: "ses_1", messageId: "msg_1", type: "text", text: `My token is ${MCP_TOKEN} and the access token ${ACCESS}.` }] as PartRecord[];
    await storage.writeBatch({ sessions: [session], messages, parts });

    const view = await render(<ShareDialog storage={storage} workspace={workspace} flush={async () => {}} linkBase="https://webcode.test/" onClose={() => {}} copyText={async () => {}} />);
    cleanups.push(() => view.unmount());
    let field: HTMLInputElement | null = null;
    for (let i = 0; i < 200 && !field; i++) {
      await settle();
      field = view.container.querySelector<HTMLInputElement>("input.share-link");
    }
    // The known secrets load after the dialog opens: wait until the scan has found them.
    for (let i = 0; i < 200 && !view.container.textContent?.includes("2 found in the transcript"); i++) await settle();
    expect(view.container.textContent).toContain("Redact key-like strings everywhere in the share (2 found in the transcript)");
    const restored = decodeShareLink(view.container.querySelector<HTMLInputElement>("input.share-link")!.value);
    const json = JSON.stringify(restored.envelope) + JSON.stringify(restored.entries);
    expect(json).not.toContain(MCP_TOKEN);
    expect(json).not.toContain(ACCESS);
    expect(json).toContain("[redacted configured-key]");
  });
});
