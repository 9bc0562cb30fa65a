// @vitest-environment happy-dom
// The chat's status line: a silent stream shows how long it has waited (from 20 s of silence,
// when the agent marks the busy status with waitingSince); a plain busy status says Working….
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { StatusLine, waitingText } from "../../src/ui/chat/status-line";
import { render, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
afterEach(async () => view?.unmount());

describe("StatusLine", () => {
  it("says how long the model has sent nothing, and only Working… otherwise", async () => {
    const now = 1_000_000;
    view = await render(<StatusLine status={{ type: "busy", waitingSince: now - 23_400 }} now={() => now} />);
    expect(view.container.textContent).toBe(" Working… no data from the model for 23 s");
    await view.unmount();
    view = await render(<StatusLine status={{ type: "busy" }} now={() => now} />);
    expect(view.container.textContent).toBe(" Working…");
    expect(waitingText(now - 90_000, now)).toBe("Working… no data from the model for 90 s");
  });
});
