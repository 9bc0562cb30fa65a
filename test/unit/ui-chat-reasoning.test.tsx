// @vitest-environment happy-dom
// The chat's reasoning control: shown with the selected model's own levels, remembered per model in
// the provider settings, and sent with the message.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { act, useState } from "react";
import { openStorage, type ModelRef } from "../../src/storage";
import { newId } from "../../src/base";
import { ChatController } from "../../src/ui/chat/chat-controller";
import { ChatPanel, type ReasoningControl } from "../../src/ui/chat/chat-panel";
import { ProviderSettings } from "../../src/ui/settings/provider-settings";
import { FakeAgent, ManualFrames, session } from "./ui-chat-fixtures";
import { byLabel, press, render, settle, typeInto, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
let controller: ChatController | undefined;
afterEach(async () => {
  await view?.unmount();
  controller?.dispose();
  view = undefined;
});

const files = { listAll: async () => [], list: async () => [], readFile: async () => new Uint8Array(), readText: async () => "", onDidChange: () => ({ dispose() {} }) };

async function setup(levels: ReasoningControl["levels"]) {
  const agent = new FakeAgent();
  controller = new ChatController(agent, { scheduler: new ManualFrames() });
  agent.sessions = [session({ title: "Reasoning", updatedAt: 5 })];
  await controller.start();
  const chosen: Array<string | undefined> = [];
  function Host() {
    const [value, setValue] = useState<ReasoningControl["value"]>();
    return (
      <ChatPanel
        controller={controller!}
        files={files}
        hasProvider
        onOpenSettings={() => {}}
        reasoning={{ levels, ...(value && { value }), onChange: (next) => (chosen.push(next), setValue(next)) }}
      />
    );
  }
  view = await render(<Host />);
  return { agent, chosen };
}

describe("reasoning control", () => {
  it("offers the model's levels, and the chosen level goes with the message", async () => {
    const { agent, chosen } = await setup(["off", "low", "medium", "high"]);
    const select = byLabel<HTMLSelectElement>(view!.container, "Reasoning")!;
    expect([...select.options].map((o) => o.textContent)).toEqual(["Reasoning: default", "Reasoning: off", "Reasoning: low", "Reasoning: medium", "Reasoning: high"]);
    await act(async () => {
      select.value = "high";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    await settle();
    expect(chosen).toEqual(["high"]);
    const box = byLabel<HTMLTextAreaElement>(view!.container, "Message")!;
    await typeInto(box, "Think hard");
    await press(box, "Enter");
    const prompt = agent.calls.find((c) => c.method === "prompt");
    expect(prompt?.args[1]).toMatchObject({ text: "Think hard", reasoning: "high" });
  });

  it("is not shown for a model that does not reason, and sends no level", async () => {
    const { agent } = await setup([]);
    expect(byLabel(view!.container, "Reasoning")).toBeUndefined();
    const box = byLabel<HTMLTextAreaElement>(view!.container, "Message")!;
    await typeInto(box, "Hi");
    await press(box, "Enter");
    const prompt = agent.calls.find((c) => c.method === "prompt");
    expect(prompt?.args[1]).toMatchObject({ text: "Hi" });
    expect(prompt?.args[1]).not.toHaveProperty("reasoning");
  });
});

describe("reasoning per model in the provider settings", () => {
  it("is remembered per model across loads, and only valid levels are restored", async () => {
    const storage = await openStorage({ name: newId("reasoning") });
    const gpt: ModelRef = { providerId: "openai", modelId: "gpt-5" };
    const claude: ModelRef = { providerId: "anthropic", modelId: "claude-sonnet-4-5" };
    const settings = new ProviderSettings(storage);
    await settings.load();
    await settings.setReasoning(gpt, "low");
    await settings.setReasoning(claude, "high");
    await settings.setReasoning(claude, undefined);
    await storage.settings.put("reasoningEfforts", { ...(await storage.settings.get<Record<string, string>>("reasoningEfforts")), "x/y": "extreme" });
    const again = new ProviderSettings(storage);
    await again.load();
    expect([again.reasoningFor(gpt), again.reasoningFor(claude), again.reasoningFor({ providerId: "x", modelId: "y" })]).toEqual(["low", undefined, undefined]);
    storage.close();
  });
});
