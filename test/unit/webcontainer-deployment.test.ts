// Issue 32, deployment: the deployer's WebContainer API key (build env or webcode.config.json, the
// Settings key as a per-user override), applied once per page before the first boot so that Retry
// works; a boot error that names the key; a late boot error shown as itself; a Referer StackBlitz
// can check the licensed domain with; output decoding that keeps characters cut between chunks.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebContainerBoot } from "../../src/runtime";
import {
  DEPLOYMENT_CONFIG_FILE,
  fetchDeploymentConfig,
  keyHint,
  licensedBoot,
  resolveApiKey,
  type WebContainerApiModule,
} from "../../src/runtime/webcontainer-licence";
import { RESPONSE_HEADERS } from "../../scripts/response-headers.mjs";
import { patchWebContainerOutputDecoding } from "../../scripts/webcontainer-output-decoding";
import { fakeWebContainerApi, type FakeWebContainer } from "../support/fake-webcontainer";

const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

function pageBoot(api: WebContainerApiModule<FakeWebContainer>, key: string | undefined, hostname = "webcode.example.com", timeoutMs = 1000) {
  const boot = new WebContainerBoot<FakeWebContainer>({
    boot: licensedBoot({ load: async () => api, apiKey: async () => (key ? { key, source: "build" } : undefined), hostname }),
    teardown: (container) => container.teardown(),
    timeoutMs,
  });
  disposers.push(() => boot.dispose());
  return boot;
}

describe("the WebContainer API key: once per page, before the first boot", () => {
  it("the fake API refuses configureAPIKey after a boot call, like the real one", async () => {
    const api = fakeWebContainerApi({ failBoots: 1 });
    await api.WebContainer.boot({ coep: "credentialless", workdirName: "workspace" }).catch(() => undefined);
    expect(() => api.configureAPIKey("k")).toThrow(/configureAPIKey` should always be called before `WebContainer.boot/);
  });

  it("Retry after a failed boot boots again with the key applied once (before: configureAPIKey threw on every Retry)", async () => {
    const api = fakeWebContainerApi({ failBoots: 1 });
    const boot = pageBoot(api, "wc_api_deployer");
    boot.start();
    await tick();
    expect(boot.status).toMatchObject({ state: "unavailable", canRetry: true });
    boot.retry();
    await tick();
    expect(boot.status).toEqual({ state: "ready" });
    expect(api.keys).toEqual(["wc_api_deployer"]);
    expect(api.boots).toBe(2);
  });

  it("the Settings key overrides the deployment's; the served config file overrides the build's", async () => {
    const readConfig = vi.fn(async () => ({ webContainerApiKey: " from-file " }));
    expect(await resolveApiKey({ settings: "mine", build: "built", readConfig })).toEqual({ key: "mine", source: "settings" });
    expect(readConfig).not.toHaveBeenCalled();
    expect(await resolveApiKey({ settings: "", build: "built", readConfig })).toEqual({ key: "from-file", source: "config-file" });
    expect(await resolveApiKey({ settings: "", build: "built", readConfig: async () => undefined })).toEqual({ key: "built", source: "build" });
    expect(await resolveApiKey({ settings: "", build: "", readConfig: async () => ({ webContainerApiKey: 42 }) })).toBeUndefined();
    // A config file that cannot be read does not stop the boot (localhost needs no key).
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(await resolveApiKey({ settings: "", build: "built", readConfig: async () => Promise.reject(new Error("bad JSON")) })).toEqual({ key: "built", source: "build" });
    warn.mockRestore();
  });

  it(`reads ${DEPLOYMENT_CONFIG_FILE} beside the page; a 404 or an HTML fallback page is no config`, async () => {
    const seen: string[] = [];
    const reply = (status: number, type: string, body: string) =>
      (async (url: RequestInfo | URL) => {
        seen.push(String(url));
        return new Response(body, { status, headers: { "content-type": type } });
      }) as typeof fetch;
    expect(await fetchDeploymentConfig("https://ide.example.com/app/index.html", reply(200, "application/json", '{"webContainerApiKey":"k"}'))()).toEqual({ webContainerApiKey: "k" });
    expect(seen).toEqual(["https://ide.example.com/app/webcode.config.json"]);
    expect(await fetchDeploymentConfig("https://ide.example.com/", reply(404, "text/plain", "Not Found"))()).toBeUndefined();
    expect(await fetchDeploymentConfig("https://ide.example.com/", reply(200, "text/html", "<!doctype html>"))()).toBeUndefined();
  });

  it("a failed boot says which key was used, or that a deployment needs one", async () => {
    const withKey = pageBoot(fakeWebContainerApi({ failBoots: 1, bootError: "Unauthorized" }), "wc_api_x");
    withKey.start();
    await tick();
    expect(withKey.status).toMatchObject({ reason: { kind: "boot-failed", message: expect.stringContaining("WebContainer API key used: the deployment's key (VITE_WEBCONTAINER_API_KEY") } });
    expect(keyHint(undefined, "ide.example.com")).toMatch(/No WebContainer API key is set: on ide\.example\.com StackBlitz needs one .*VITE_WEBCONTAINER_API_KEY.*webcode\.config\.json.*Settings → Runtime/);
    expect(keyHint(undefined, "localhost")).toMatch(/none is needed on localhost/);
  });
});

describe("a boot error that arrives after the timeout", () => {
  it("replaces 'did not start in time' with the error itself (before: dropped)", async () => {
    let fail!: (error: Error) => void;
    const boot = new WebContainerBoot<object>({ boot: () => new Promise((_resolve, reject) => (fail = reject)), teardown: () => undefined, timeoutMs: 20 });
    disposers.push(() => boot.dispose());
    boot.start();
    await tick(40);
    expect(boot.status).toMatchObject({ state: "unavailable", reason: { kind: "boot-timeout" } });
    fail(new Error("The WebContainer API key is not valid for this domain"));
    await tick();
    expect(boot.status).toEqual({
      state: "unavailable",
      reason: { kind: "boot-failed", message: "The WebContainer API key is not valid for this domain" },
      canRetry: true,
    });
  });
});

describe("response headers", () => {
  it("send the origin (only) to StackBlitz, so it can check the licensed domain", () => {
    expect(RESPONSE_HEADERS["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
  });
});

describe("@webcontainer/api's output decoding, as the build patches it", () => {
  /** The module's binaryListener (as published, or patched) as a function: it only uses TextDecoder and its argument. */
  function binaryListenerOf(patched = true): (listener: (text: string | null) => void) => (data: Uint8Array | null) => void {
    const published = readFileSync("node_modules/@webcontainer/api/dist/index.js", "utf8");
    const code = patched ? patchWebContainerOutputDecoding(published) : published;
    const source = code.slice(code.indexOf("function binaryListener(listener) {"));
    const body = source.slice(0, source.indexOf("\n}\n") + 2);
    return new Function("decoder", `${body}; return binaryListener;`)(new TextDecoder()) as never;
  }

  it("as published, a character cut between two chunks becomes U+FFFD (why the build patches it)", () => {
    const seen: Array<string | null> = [];
    const listener = binaryListenerOf(false)((text) => seen.push(text));
    const bytes = new TextEncoder().encode("é");
    listener(bytes.subarray(0, 1));
    listener(bytes.subarray(1));
    expect(seen.join("")).toBe("\uFFFD\uFFFD");
  });

  it("keeps a character cut between two chunks whole (before: two U+FFFD)", () => {
    const seen: Array<string | null> = [];
    const listener = binaryListenerOf()((text) => seen.push(text));
    const bytes = new TextEncoder().encode("✓ héllo");
    listener(bytes.subarray(0, 1));
    listener(bytes.subarray(1, 6));
    listener(bytes.subarray(6));
    listener(null);
    expect(seen.filter((text) => text !== null).join("")).toBe("✓ héllo");
    expect(seen.at(-1)).toBeNull();
  });

  it("refuses to build against changed API code instead of silently losing the fix", () => {
    expect(() => patchWebContainerOutputDecoding("export const x = 1;")).toThrow(/@webcontainer\/api changed/);
  });
});
