// @vitest-environment happy-dom
// The banner of in-memory storage (IndexedDB would not open): it says nothing is kept, exports,
// and Retry either says the browser's storage still fails or, once it opens, offers to export
// and reload onto it (never reloading without the user's word).
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { Dialogs } from "../../src/ui/common";
import { MemoryStorageBanner } from "../../src/ui/storage";
import { render, settle, type Rendered } from "./ui-chat-render";

const rendered: Rendered[] = [];
afterEach(async () => {
  for (const r of rendered.splice(0)) await r.unmount();
});

function button(r: Rendered, label: string): HTMLButtonElement {
  const found = [...r.container.querySelectorAll("button")].find((b) => b.textContent === label);
  if (!found) throw new Error(`no button "${label}" in: ${r.container.textContent}`);
  return found;
}

async function setup(checkResults: Array<string | undefined>) {
  const dialogs = new Dialogs();
  const calls = { exported: 0, reloaded: 0, checked: 0 };
  const r = await render(
    <MemoryStorageBanner
      reason="The user denied permission to access the database."
      dialogs={dialogs}
      checkAgain={async () => checkResults[calls.checked++]}
      exportWorkspace={async () => void calls.exported++}
      reload={() => void calls.reloaded++}
    />,
  );
  rendered.push(r);
  return { r, dialogs, calls };
}

describe("MemoryStorageBanner", () => {
  it("says nothing is kept and why, and exports on request", async () => {
    const { r, calls } = await setup([]);
    const alert = r.container.querySelector("[role=alert]")!;
    expect(alert.getAttribute("aria-label")).toBe("Nothing is being saved");
    expect(alert.textContent).toContain("(The user denied permission to access the database).");
    expect(alert.textContent).toMatch(/lost when the tab is closed or reloaded/);
    await act(async () => button(r, "Export workspace (zip)").click());
    await settle();
    expect(calls.exported).toBe(1);
  });

  it("Retry says when the browser's storage still does not open, and reloads only when asked to", async () => {
    const { r, dialogs, calls } = await setup(["The user denied permission to access the database.", undefined, undefined]);
    await act(async () => button(r, "Retry").click());
    await settle();
    expect(r.container.textContent).toContain("Browser storage still cannot be opened: The user denied permission to access the database.");
    expect(dialogs.store.getState().current).toBeUndefined();

    // It opens now: the user is asked; "Not now" leaves everything as it is.
    await act(async () => button(r, "Retry").click());
    await settle();
    const asked = dialogs.store.getState().current!;
    expect(asked.request.kind === "choice" && asked.request.buttons.map((b) => b.id)).toEqual(["cancel", "export", "reload"]);
    await act(async () => dialogs.answer(asked.id, "cancel"));
    await settle();
    expect(calls).toMatchObject({ exported: 0, reloaded: 0 });

    // "Export, then reload": the zip first, then the reload.
    await act(async () => button(r, "Retry").click());
    await settle();
    await act(async () => dialogs.answer(dialogs.store.getState().current!.id, "export"));
    await settle();
    expect(calls).toMatchObject({ exported: 1, reloaded: 1, checked: 3 });
  });
});
