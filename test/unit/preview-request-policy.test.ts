// The Preview panel's side of issue 30's request policy: which origins a preview session may reach
// (per session, only real origins), and the frame document that holds the page's navigation policy.
import { describe, expect, it } from "vitest";
import { blockedOrigin, previewFrameDocument, PreviewRequestPolicies, previewSessionOf } from "../../src/ui/preview/request-policy";

const BASE = "http://app.test/__preview/s1/";
const OTHER = "http://app.test/__preview/s2/";

describe("preview request policies", () => {
  it("keeps allowed origins per preview session, and only origins", () => {
    const policies = new PreviewRequestPolicies();
    policies.allow(`${BASE}about.html`, "http://127.0.0.1:4000");
    policies.allow(BASE, "https://example.com/path?q=1");
    policies.allow(BASE, "javascript:alert(1)");
    policies.allow(BASE, "http://a.test; script-src *");
    policies.allow("http://app.test/not-a-preview/", "https://example.org");
    expect(policies.allowedFor(`${BASE}deep/page.html`)).toEqual(["http://127.0.0.1:4000", "https://example.com"]);
    expect(policies.allowedFor(OTHER)).toEqual([]);
  });

  it("remembers which sessions the user opened", () => {
    const policies = new PreviewRequestPolicies();
    expect(policies.isOpened(BASE)).toBe(false);
    policies.markOpened(`${BASE}x.html`);
    expect(policies.isOpened(BASE)).toBe(true);
    expect(policies.isOpened(OTHER)).toBe(false);
  });

  it("reads the origin of a blocked request, and nothing from inline or data: blocks", () => {
    expect(blockedOrigin("http://127.0.0.1:5000/beacon")).toBe("http://127.0.0.1:5000");
    expect(blockedOrigin("wss://example.com/socket")).toBe("wss://example.com");
    expect(blockedOrigin("inline")).toBeUndefined();
    expect(blockedOrigin("data:text/plain,x")).toBeUndefined();
    expect(previewSessionOf(`${BASE}a/b`)).toBe(BASE);
    expect(previewSessionOf("http://app.test/__preview/")).toBeUndefined();
  });

  it("the page's frame lets it navigate only within the preview and to allowed origins", () => {
    const html = previewFrameDocument(`${BASE}a.html?x="><script>`, BASE, ["https://example.com", "bad origin"]);
    const policy = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1];
    expect(policy).toBe(`default-src 'none'; style-src 'unsafe-inline'; frame-src ${BASE} https://example.com data: blob:; form-action 'none'; base-uri 'none'`);
    expect(html).toContain(`src="${BASE}a.html?x=&quot;&gt;&lt;script&gt;"`);
    expect(html).not.toContain("<script");
  });
});
