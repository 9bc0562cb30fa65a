// @vitest-environment happy-dom
// Settings → Permissions: the user's choices for file edits, shell commands and web fetches are
// stored in IndexedDB, restored defensively, and become rules the agent applies over the defaults.
import "../support/happy-dom-node-name";
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_RULES, evaluate, ruleset } from "../../src/agent";
import { openStorage, type Storage } from "../../src/storage";
import { PERMISSION_SETTINGS_KEY, PermissionSettings, ProviderSettings, SettingsDialog, restoreOrigins, restorePermissionChoices } from "../../src/ui/settings";
import { byLabel, render, settle, settleUntil, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
let storage: Storage | undefined;
afterEach(async () => {
  await view?.unmount();
  view = undefined;
  storage?.close();
});

async function choose(select: HTMLSelectElement, value: string) {
  await act(async () => {
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await settle();
}

describe("PermissionSettings", () => {
  it("keeps only well-formed http(s) origins from stored data", () => {
    expect(restoreOrigins(["https://a.test", "https://a.test/path", "javascript:alert(1)", "http://127.0.0.1:9", 5, "https://a.test"])).toEqual(["https://a.test", "http://127.0.0.1:9"]);
    expect(restoreOrigins({ 0: "https://a.test" })).toEqual([]);
  });

  it("trusts a site for good: stored, read back after a reload, and an allow rule for commands' requests to it only", async () => {
    storage = await openStorage({ name: `permissions-${Math.random()}` });
    const permissions = new PermissionSettings(storage);
    await permissions.load();
    expect(evaluate("network", "https://api.example.test", [...DEFAULT_RULES], permissions.rules()).action).toBe("ask");
    await permissions.trustOrigin("https://api.example.test");
    const reloaded = new PermissionSettings(storage);
    await reloaded.load();
    expect(reloaded.store.getState().origins).toEqual(["https://api.example.test"]);
    expect(evaluate("network", "https://api.example.test", [...DEFAULT_RULES], reloaded.rules()).action).toBe("allow");
    expect(evaluate("network", "https://other.test", [...DEFAULT_RULES], reloaded.rules()).action).toBe("ask");
    await reloaded.distrustOrigin("https://api.example.test");
    expect(evaluate("network", "https://api.example.test", [...DEFAULT_RULES], reloaded.rules()).action).toBe("ask");
  });

  it("keeps only known permissions with valid actions from stored data", () => {
    expect(restorePermissionChoices({ edit: "ask", bash: "sometimes", webfetch: "deny", "*": "allow", read: "deny" })).toEqual({ edit: "ask", webfetch: "deny" });
    expect(restorePermissionChoices(["ask"])).toEqual({});
    expect(restorePermissionChoices("edit")).toEqual({});
    expect(restorePermissionChoices(undefined)).toEqual({});
  });

  it("saves a choice, reads it back after a reload, and turns it into a rule that wins over the defaults", async () => {
    storage = await openStorage({ name: `permissions-${Math.random()}` });
    const permissions = new PermissionSettings(storage);
    await permissions.load();
    expect(evaluate("edit", "src/a.ts", [...DEFAULT_RULES], ruleset(permissions.choices)).action).toBe("allow");
    await permissions.set("edit", "ask");
    await permissions.set("bash", "deny");
    await permissions.set("bash", undefined);
    expect(await storage.settings.get(PERMISSION_SETTINGS_KEY)).toEqual({ edit: "ask" });

    const reloaded = new PermissionSettings(storage);
    await reloaded.load();
    expect(reloaded.choices).toEqual({ edit: "ask" });
    expect(evaluate("edit", "src/a.ts", [...DEFAULT_RULES], ruleset(reloaded.choices)).action).toBe("ask");
    // Back to the default: destructive commands still ask, others are allowed.
    expect(evaluate("bash", "rm -rf dist", [...DEFAULT_RULES], ruleset(reloaded.choices)).action).toBe("ask");
    expect(evaluate("bash", "ls", [...DEFAULT_RULES], ruleset(reloaded.choices)).action).toBe("allow");
  });

  it("keeps both of two changes made at once (each starts from the one before)", async () => {
    storage = await openStorage({ name: `permissions-both-${Math.random()}` });
    const permissions = new PermissionSettings(storage);
    await permissions.load();
    await Promise.all([permissions.set("edit", "ask"), permissions.set("bash", "deny"), permissions.set("webfetch", "allow")]);
    expect(permissions.choices).toEqual({ edit: "ask", bash: "deny", webfetch: "allow" });
    expect(await storage.settings.get(PERMISSION_SETTINGS_KEY)).toEqual({ edit: "ask", bash: "deny", webfetch: "allow" });
  });

  it("is edited in the Settings dialog's Permissions section", async () => {
    storage = await openStorage({ name: `permissions-ui-${Math.random()}` });
    const settings = new ProviderSettings(storage);
    const permissions = new PermissionSettings(storage);
    await Promise.all([settings.load(), permissions.load()]);
    view = await render(<SettingsDialog settings={settings} permissions={permissions} testConnection={async () => ({ ok: true })} onClose={() => {}} />);
    expect(view.container.textContent).toContain("Permissions");
    const edits = byLabel<HTMLSelectElement>(view.container, "File edits")!;
    const commands = byLabel<HTMLSelectElement>(view.container, "Shell commands")!;
    const fetches = byLabel<HTMLSelectElement>(view.container, "Web fetches")!;
    expect(fetches.options[0]?.textContent).toBe("Default (ask first, showing the full address)");
    await choose(fetches, "allow");
    await settleUntil(() => permissions.choices.webfetch === "allow", "the web fetch choice to be stored");
    expect(permissions.choices).toEqual({ webfetch: "allow" });
    await choose(fetches, "");
    await settleUntil(() => permissions.choices.webfetch === undefined, "the web fetch choice to be removed");
    expect(Array.from(edits.options).map((o) => o.textContent)).toEqual(["Default (allowed)", "Ask first", "Allow", "Never"]);
    expect(edits.value).toBe("");
    // Two choices one right after the other: the second must not lose the first.
    await choose(edits, "ask");
    await choose(commands, "deny");
    await settleUntil(() => permissions.choices.bash === "deny", "the shell command choice to be stored");
    expect(permissions.choices).toEqual({ edit: "ask", bash: "deny" });
    expect(await storage.settings.get(PERMISSION_SETTINGS_KEY)).toEqual({ edit: "ask", bash: "deny" });
    await choose(commands, "");
    await settleUntil(() => permissions.choices.bash === undefined, "the shell command choice to be removed");
    expect(permissions.choices).toEqual({ edit: "ask" });
  });

  it("is not shown without permission settings (the dialog stays usable on its own)", async () => {
    storage = await openStorage({ name: `permissions-none-${Math.random()}` });
    const settings = new ProviderSettings(storage);
    await settings.load();
    view = await render(<SettingsDialog settings={settings} testConnection={async () => ({ ok: true })} onClose={() => {}} />);
    expect(byLabel(view.container, "File edits")).toBeUndefined();
  });
});
