// scripts/serve.mjs (what `npm start` runs) and the Vite dev server: malformed paths, containment
// in the served folder, and the security headers on every response (issue 9, point 4).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createStaticServer, RESPONSE_HEADERS } from "../../scripts/serve.mjs";

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A raw request: node's http client sends the path as written ("/../x" is not normalised away). */
function request(port: number, rawPath: string, method = "GET", accept = "*/*"): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: rawPath, method, headers: { accept } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const EXPECTED = {
  "content-security-policy": "frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-embedder-policy": "credentialless",
};

function expectSecurityHeaders(reply: Reply): void {
  for (const [name, value] of Object.entries(EXPECTED)) expect(reply.headers[name], name).toBe(value);
}

describe("scripts/serve.mjs", () => {
  let folder: string;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), "webcode-serve-"));
    const dist = path.join(folder, "dist");
    mkdirSync(path.join(dist, "assets"), { recursive: true });
    writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>app</title>");
    writeFileSync(path.join(dist, "assets", "app.js"), "console.log('app')");
    writeFileSync(path.join(dist, "sandbox.html"), "<!doctype html><title>sandbox</title>");
    // Siblings whose names share the served folder's prefix, and a file beside it.
    mkdirSync(path.join(folder, "dist-evil"));
    writeFileSync(path.join(folder, "dist-evil", "secret.txt"), "EVIL-SIBLING");
    mkdirSync(path.join(folder, "distsecret"));
    writeFileSync(path.join(folder, "distsecret", "secret.txt"), "EVIL-PREFIX");
    writeFileSync(path.join(folder, "outside.txt"), "OUTSIDE");
    server = createStaticServer(dist);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  it("serves the app and its assets with every security header", async () => {
    const page = await request(port, "/");
    expect(page.status).toBe(200);
    expect(page.body).toContain("<title>app</title>");
    expectSecurityHeaders(page);
    const asset = await request(port, "/assets/app.js?v=1");
    expect(asset.status).toBe(200);
    expect(asset.headers["content-type"]).toContain("text/javascript");
    expectSecurityHeaders(asset);
  });

  it("answers a malformed path with 400 and keeps running", async () => {
    const bad = await request(port, "/%E0%A4%A");
    expect(bad.status).toBe(400);
    expectSecurityHeaders(bad);
    const nul = await request(port, "/index.html%00.js");
    expect(nul.status).toBe(400);
    const after = await request(port, "/");
    expect(after.status).toBe(200);
  });

  it("never serves a file outside the served folder, sibling folders with a common prefix included", async () => {
    const attempts = [
      "/../dist-evil/secret.txt",
      "/..%2fdist-evil%2fsecret.txt",
      "/%2e%2e/dist-evil/secret.txt",
      "/%2e%2e%2fdistsecret%2fsecret.txt",
      "/..%5cdist-evil%5csecret.txt",
      "/../outside.txt",
      "/assets/../../outside.txt",
      "/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    ];
    for (const attempt of attempts) {
      const reply = await request(port, attempt);
      expect([400, 403, 404], attempt).toContain(reply.status);
      expect(reply.body, attempt).not.toMatch(/EVIL|OUTSIDE|root:/);
      expectSecurityHeaders(reply);
    }
  });

  it("sends the headers on 404s and on refused methods too", async () => {
    const missing = await request(port, "/assets/missing.js");
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing);
    const post = await request(port, "/", "POST");
    expect(post.status).toBe(405);
    expectSecurityHeaders(post);
  });

  it("answers a navigation path without a file with the app page", async () => {
    const reply = await request(port, "/some/route");
    expect(reply.status).toBe(200);
    expect(reply.body).toContain("<title>app</title>");
  });

  it("lets only the program sandbox page be framed, and only by this origin", async () => {
    const sandbox = await request(port, "/sandbox.html");
    expect(sandbox.status).toBe(200);
    expect(sandbox.headers["content-security-policy"]).toBe("frame-ancestors 'self'");
    expect(sandbox.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(sandbox.headers["cross-origin-embedder-policy"]).toBe("credentialless");
    const page = await request(port, "/");
    expect(page.headers["content-security-policy"]).toBe("frame-ancestors 'none'");
    expect(page.headers["x-frame-options"]).toBe("DENY");
  });

  it("exports the headers it sends", () => {
    expect(Object.fromEntries(Object.entries(RESPONSE_HEADERS).map(([k, v]) => [k.toLowerCase(), v]))).toMatchObject(EXPECTED);
  });
});

describe("the Vite dev server", () => {
  it("sends the same security headers, 404s and 400s included", async () => {
    const { createServer } = await import("vite");
    const root = path.resolve(__dirname, "../..");
    const vite = await createServer({
      configFile: path.join(root, "vite.config.ts"),
      root,
      logLevel: "silent",
      server: { host: "127.0.0.1", port: 0, strictPort: false, hmr: false, watch: null },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
    await vite.listen();
    try {
      const port = (vite.httpServer?.address() as AddressInfo).port;
      const page = await request(port, "/");
      expect(page.status).toBe(200);
      expectSecurityHeaders(page);
      // A script request for a missing module (an HTML Accept would get the app page instead).
      const missing = await request(port, "/no-such-file.js", "GET", "text/javascript");
      expect(missing.status).toBe(404);
      expectSecurityHeaders(missing);
      const bad = await request(port, "/%E0%A4%A");
      expect(bad.status).toBe(400);
      expectSecurityHeaders(bad);
      expect((await request(port, "/")).status).toBe(200);
      // The program sandbox page may be framed by this origin, as with scripts/serve.mjs: with
      // frame-ancestors 'none' node and python3 never started under `npm run dev` (issue 28 point 6).
      const sandbox = await request(port, "/sandbox.html");
      expect(sandbox.status).toBe(200);
      expect(sandbox.headers["content-security-policy"]).toBe("frame-ancestors 'self'");
      expect(sandbox.headers["x-frame-options"]).toBe("SAMEORIGIN");
    } finally {
      await vite.close();
    }
  });
});

describe("vite preview", () => {
  it("sends scripts/serve.mjs's headers: the sandbox page frameable by this origin, everything else by none", async () => {
    const { preview } = await import("vite");
    const root = path.resolve(__dirname, "../..");
    const folder = mkdtempSync(path.join(tmpdir(), "webcode-preview-"));
    writeFileSync(path.join(folder, "index.html"), "<!doctype html><title>app</title>");
    writeFileSync(path.join(folder, "sandbox.html"), "<!doctype html><title>sandbox</title>");
    const server = await preview({
      configFile: path.join(root, "vite.config.ts"),
      root,
      logLevel: "silent",
      build: { outDir: folder },
      preview: { host: "127.0.0.1", port: 0, strictPort: false, open: false },
    });
    try {
      const port = (server.httpServer.address() as AddressInfo).port;
      const page = await request(port, "/");
      expect(page.status).toBe(200);
      expectSecurityHeaders(page);
      const sandbox = await request(port, "/sandbox.html");
      expect(sandbox.status).toBe(200);
      expect(sandbox.headers["content-security-policy"]).toBe("frame-ancestors 'self'");
      expect(sandbox.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(sandbox.headers["cross-origin-embedder-policy"]).toBe("credentialless");
    } finally {
      await server.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
