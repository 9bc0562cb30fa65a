// @vitest-environment happy-dom
// Settings → Budget per session (issue 21, item 6): dollars and tokens, stored in IndexedDB, restored
// defensively; and the chat's "Raise the budget" button on the message that says the turn stopped.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../../src/storage";
import { MessageErrorView } from "../../src/ui/chat/message-view";
import { BUDGET_SETTINGS_KEY, BudgetSettings, ProviderSettings, SettingsDialog, restoreBudget } from "../../src/ui/settings";
import { button, byLabel, click, press, render, settle, settleUntil, typeInto, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
let storage: Storage | undefined;
afterEach(async () => {
  await view?.unmount();
  view = undefined;
  storage?.close();
});

describe("BudgetSettings", () => {
  it("keeps only positive limits from stored data", () => {
    expect(restoreBudget({ dollars: 5, tokens: -1 })).toEqual({ dollars: 5 });
    expect(restoreBudget({ dollars: "5", tokens: 2e6 })).toEqual({ tokens: 2e6 });
    expect(restoreBudget({ dollars: Number.POSITIVE_INFINITY })).toEqual({});
    expect(restoreBudget([5])).toEqual({});
    expect(restoreBudget(undefined)).toEqual({});
  });

  it("saves limits, reads them back after a reload, refuses nonsense, and has none by default", async () => {
    storage = await openStorage({ name: `budget-${Math.random()}` });
    const budget = new BudgetSettings(storage);
    await budget.load();
    expect(budget.budget).toBeUndefined();
    await budget.set("dollars", 2.5);
    await budget.set("tokens", 500_000);
    await budget.set("tokens", undefined);
    await expect(budget.set("dollars", -3)).rejects.toThrow(/above 0/);
    expect(await storage.settings.get(BUDGET_SETTINGS_KEY)).toEqual({ dollars: 2.5 });
    const reloaded = new BudgetSettings(storage);
    await reloaded.load();
    expect(reloaded.budget).toEqual({ dollars: 2.5 });
  });

  it("keeps both of two changes made at once (each starts from the one before)", async () => {
    storage = await openStorage({ name: `budget-both-${Math.random()}` });
    const budget = new BudgetSettings(storage);
    await budget.load();
    await Promise.all([budget.set("dollars", 4), budget.set("tokens", 100_000)]);
    expect(budget.budget).toEqual({ dollars: 4, tokens: 100_000 });
    expect(await storage.settings.get(BUDGET_SETTINGS_KEY)).toEqual({ dollars: 4, tokens: 100_000 });
  });

  it("is edited in the Settings dialog", async () => {
    storage = await openStorage({ name: `budget-ui-${Math.random()}` });
    const settings = new ProviderSettings(storage);
    const budget = new BudgetSettings(storage);
    await Promise.all([settings.load(), budget.load()]);
    view = await render(<SettingsDialog settings={settings} budget={budget} testConnection={async () => ({ ok: true })} onClose={() => {}} />);
    expect(view.container.textContent).toContain("Budget per session");
    const dollars = byLabel<HTMLInputElement>(view.container, "Dollars")!;
    const tokens = byLabel<HTMLInputElement>(view.container, "Tokens")!;
    // Two limits entered one right after the other: the second change must not lose the first.
    await typeInto(dollars, "3");
    await press(dollars, "Enter");
    await typeInto(tokens, "250000");
    await press(tokens, "Enter");
    await settleUntil(() => budget.budget?.tokens !== undefined, "the token limit to be stored");
    expect(budget.budget).toEqual({ dollars: 3, tokens: 250_000 });
    expect(await storage.settings.get(BUDGET_SETTINGS_KEY)).toEqual({ dollars: 3, tokens: 250_000 });
    await typeInto(tokens, "");
    await press(tokens, "Enter");
    await settleUntil(() => budget.budget?.tokens === undefined, "the token limit to be removed");
    expect(budget.budget).toEqual({ dollars: 3 });
    await typeInto(dollars, "-1");
    await press(dollars, "Enter");
    await settle();
    expect(view.container.querySelector('[role="alert"]')?.textContent).toMatch(/above 0/);
    expect(budget.budget).toEqual({ dollars: 3 });
  });
});

describe("the chat's budget stop", () => {
  it("offers 'Raise the budget', which opens Settings", async () => {
    let opened = 0;
    view = await render(
      <MessageErrorView
        error={{ name: "BudgetError", message: "Stopped before the next step: this session has cost $4.90 ...", action: "Raise or remove the budget in Settings." }}
        onOpenSettings={() => opened++}
      />,
    );
    expect(view.container.textContent).toContain("Stopped before the next step");
    await click(button(view.container, "Raise the budget"));
    expect(opened).toBe(1);
  });
});
