// @vitest-environment happy-dom
// Settings → Storage's browser line: used and available space, whether storage is persistent, and
// asking for it.
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { BrowserQuota, type QuotaManager } from "../../src/ui/storage/browser-quota";
import { render, settle, type Rendered } from "./ui-chat-render";

const rendered: Rendered[] = [];
afterEach(async () => {
  for (const r of rendered.splice(0)) await r.unmount();
});

function manager(persisted: boolean): QuotaManager & { asked: number } {
  const m = {
    asked: 0,
    persisted: async () => persisted,
    persist: async () => {
      m.asked++;
      persisted = true;
      return true;
    },
    estimate: async () => ({ usage: 5 * 1024 * 1024, quota: 100 * 1024 * 1024 }),
  };
  return m;
}

describe("BrowserQuota", () => {
  it("shows usage and availability, says storage is not persistent and asks for it on request", async () => {
    const m = manager(false);
    const r = await render(<BrowserQuota manager={m} />);
    rendered.push(r);
    await settle();
    const text = () => r.container.textContent ?? "";
    expect(text()).toMatch(/uses 5(\.0)? MB of the 100(\.0)? MB the browser allows it \(95(\.0)? MB available\)/);
    expect(text()).toMatch(/Not persistent/);
    const ask = [...r.container.querySelectorAll("button")].find((b) => b.textContent === "Ask to keep storage")!;
    await act(async () => ask.click());
    await settle();
    expect(m.asked).toBe(1);
    expect(text()).toMatch(/Persistent: the browser keeps this data/);
  });

  it("says so where the browser cannot tell", async () => {
    const r = await render(<BrowserQuota manager={undefined} />);
    rendered.push(r);
    expect(r.container.textContent).toMatch(/does not tell/);
  });
});
