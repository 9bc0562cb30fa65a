import { describe, expect, it } from "vitest";
import { fetchZip, findImportUrl, withoutTransferFragment } from "../../src/transfer";

/** A scripted fetch (no network): records the request and answers with the given body. */
function fakeFetch(body: Uint8Array | null, init: ResponseInit & { headers?: Record<string, string> } = {}) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fn = async (url: string, requestInit: RequestInit) => {
    calls.push({ url, init: requestInit });
    const stream = body
      ? new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < body.length; i += 10) controller.enqueue(body.subarray(i, i + 10));
            controller.close();
          },
        })
      : null;
    return new Response(stream, init);
  };
  return { fn, calls };
}

describe("fetchZip", () => {
  it("downloads without credentials and reports progress", async () => {
    const { fn, calls } = fakeFetch(new Uint8Array(35).fill(7), { headers: { "content-length": "35" } });
    const progress: Array<[number, number | undefined]> = [];
    const bytes = await fetchZip("https://example.com/repo.zip", { fetch: fn, onProgress: (r, t) => progress.push([r, t]) });
    expect(bytes.length).toBe(35);
    expect(calls[0]?.init).toMatchObject({ mode: "cors", credentials: "omit" });
    expect(progress.at(-1)).toEqual([35, 35]);
  });

  it("refuses non-http links, error statuses, network failures and oversized downloads", async () => {
    const ok = fakeFetch(new Uint8Array(1));
    await expect(fetchZip("javascript:alert(1)", { fetch: ok.fn })).rejects.toMatchObject({ reason: "download-failed" });
    await expect(fetchZip("file:///etc/passwd", { fetch: ok.fn })).rejects.toMatchObject({ reason: "download-failed" });
    expect(ok.calls).toHaveLength(0);
    await expect(fetchZip("https://x.dev/a.zip", { fetch: fakeFetch(null, { status: 404 }).fn })).rejects.toThrow(/answered 404/);
    const offline = async () => {
      throw new TypeError("Failed to fetch");
    };
    await expect(fetchZip("https://x.dev/a.zip", { fetch: offline })).rejects.toThrow(/CORS/);
    const declared = fakeFetch(new Uint8Array(5), { headers: { "content-length": "999999" } });
    await expect(fetchZip("https://x.dev/a.zip", { fetch: declared.fn, maxBytes: 100 })).rejects.toThrow(/larger than/);
    const undeclared = fakeFetch(new Uint8Array(500));
    await expect(fetchZip("https://x.dev/a.zip", { fetch: undeclared.fn, maxBytes: 100 })).rejects.toThrow(/larger than/);
  });

  it("finds the URL in #import=", () => {
    expect(findImportUrl("https://webcode.dev/#import=https%3A%2F%2Fx.dev%2Fa.zip")).toBe("https://x.dev/a.zip");
    expect(findImportUrl("https://webcode.dev/#import=https://x.dev/a.zip")).toBe("https://x.dev/a.zip");
    expect(findImportUrl("https://webcode.dev/#share=v1.abc")).toBeUndefined();
  });

  it("removes share and import data from the address, keeping anything else", () => {
    expect(withoutTransferFragment("https://w.dev/#share=v1.abc")).toBe("https://w.dev/");
    expect(withoutTransferFragment("https://w.dev/?q=1#import=https://x/a.zip&panel=chat")).toBe("https://w.dev/?q=1#panel=chat");
    expect(withoutTransferFragment("https://w.dev/#panel=chat")).toBe("https://w.dev/#panel=chat");
    expect(withoutTransferFragment("https://w.dev/")).toBe("https://w.dev/");
  });
});
