// @vitest-environment happy-dom
// The dialog host's choice dialogs start on the right button: the main action for an ordinary
// confirm, the safe choice (Cancel) for a destructive one, so Enter never deletes by accident.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { DialogHost, Dialogs } from "../../src/ui/common";
import { render, settle, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
afterEach(async () => {
  await view?.unmount();
  view = undefined;
});

describe("DialogHost focus", () => {
  it("an ordinary confirm starts on its main action", async () => {
    const dialogs = new Dialogs();
    view = await render(<DialogHost dialogs={dialogs} />);
    void dialogs.confirm("Reload?", "The page reloads.", "Reload");
    await settle();
    expect(document.activeElement?.textContent).toBe("Reload");
  });

  it("a destructive confirm starts on Cancel, and Enter there cancels", async () => {
    const dialogs = new Dialogs();
    view = await render(<DialogHost dialogs={dialogs} />);
    const answer = dialogs.confirm("Delete session?", "It goes.", "Delete", { danger: true });
    await settle();
    expect(document.activeElement?.textContent).toBe("Cancel");
    (document.activeElement as HTMLButtonElement).click();
    expect(await answer).toBe(false);
  });
});
