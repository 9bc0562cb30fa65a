// The Preview of a program's server: when a node program listens, the browser runtime reports
// localhost:PORT as a server of the Preview under a preview URL of its own; the page it serves comes
// from the server with its same-site script and stylesheet inlined and the prelude first (the
// previewed page's subresource requests do not reach the service worker); its fetch() calls are
// answered by the server; Ctrl-C reports the server closed, and a re-run is reported again at the same URL.
import { describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { PreviewHub } from "../../src/runtime/preview";
import { proxiedUrl, viteProxyRules } from "../../src/runtime/preview/vite-proxy";
import { LocalServers, SandboxHost } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";

const SERVER = [
  "const http = require('http');",
  "http.createServer((req, res) => {",
  "  if (req.url === '/') { res.setHeader('Content-Type', 'text/html'); return res.end('<!doctype html><html><head><link rel=\"stylesheet\" href=\"/style.css\"><script src=\"/app.js\"></script></head><body>home</body></html>'); }",
  "  if (req.url === '/app.js') { res.setHeader('Content-Type', 'text/javascript'); return res.end('window.app = 1;'); }",
  "  if (req.url === '/style.css') { res.setHeader('Content-Type', 'text/css'); return res.end('body { color: red }'); }",
  "  if (req.url.startsWith('/api/hello')) { res.setHeader('Content-Type', 'application/json'); return res.end(JSON.stringify({ hello: 'world', query: req.url.split('?')[1] ?? '' })); }",
  "  res.statusCode = 404; res.end('no');",
  "}).listen(3001);",
].join("\n");

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("the Preview of a program's server", () => {
  it("lists localhost:PORT while it listens, serves its page with subresources inlined and its API through the panel's requests", async () => {
    const storage = await openStorage({ name: `server-preview-${Date.now()}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    const servers = new LocalServers();
    const hub = new PreviewHub("http://app.test", () => "session1");
    const runtime = createBrowserRuntime(files, { node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false, servers }), preview: hub });
    await files.writeFile("server.js", SERVER);
    const ready: Array<[number, string]> = [];
    const closed: number[] = [];
    runtime.onServerReady((port, url) => ready.push([port, url]));
    runtime.onServerClosed?.((port) => closed.push(port));

    const controller = new AbortController();
    const run = runtime.exec("node server.js", { signal: controller.signal });
    await until(() => ready.length === 1, "the server to be reported");
    const url = "http://app.test/__preview/session1/";
    expect(ready).toEqual([[3001, url]]);

    const page = await hub.handle(url, "page");
    expect(page?.status).toBe(200);
    expect(page?.contentType).toBe("text/html");
    const html = String(page?.body);
    expect(html).toMatch(/^<!doctype html><html><head><script>\(function preludeMain/);
    expect(html).toContain("<style>body { color: red }</style><script>window.app = 1;</script></head><body>home</body>");
    const api = await runtime.previewRequest?.(`${url}api/hello?x=1`);
    expect(api?.status).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(api?.body as Uint8Array))).toEqual({ hello: "world", query: "x=1" });
    expect((await runtime.previewRequest?.(`${url}missing`))?.status).toBe(404);

    controller.abort();
    await run;
    expect(closed).toEqual([3001]);
    const down = await hub.handle(url, "page");
    expect(down?.status).toBe(502);
    expect(String(down?.body)).toContain("Connection refused");

    const again = new AbortController();
    const rerun = runtime.exec("node server.js", { signal: again.signal });
    await until(() => ready.length === 2, "the server to be reported again");
    expect(ready[1]).toEqual([3001, url]);
    expect(String((await hub.handle(url, "page"))?.body)).toContain("home");
    again.abort();
    await rerun;
  });
});

describe("server.proxy of a vite.config in the built-in preview", () => {
  it("reads the string and object forms (target, rewrite as path.replace, ^ keys) and leaves other rewrites named", () => {
    const rules = viteProxyRules(`import { defineConfig } from 'vite';
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      // the API
      '/api': 'http://localhost:3001',
      "/auth": { target: 'http://127.0.0.1:4000', changeOrigin: true, rewrite: (path) => path.replace(/^\\/auth/, '') },
      '^/img/.*': { target: 'http://localhost:5000' },
      '/odd': { target: 'http://localhost:6000', rewrite: (p) => rewriteIt(p) },
    },
  },
});`);
    expect(rules.map((r) => [r.context, r.target, r.rewrite?.pattern.source, r.unreadRewrite ?? false])).toEqual([
      ["/api", "http://localhost:3001", undefined, false],
      ["/auth", "http://127.0.0.1:4000", "^\\/auth", false],
      ["^/img/.*", "http://localhost:5000", undefined, false],
      ["/odd", "http://localhost:6000", undefined, true],
    ]);
    expect(proxiedUrl(rules, "/api/hello?x=1")).toBe("http://localhost:3001/api/hello?x=1");
    expect(proxiedUrl(rules, "/auth/login")).toBe("http://127.0.0.1:4000/login");
    expect(proxiedUrl(rules, "/img/a.png")).toBe("http://localhost:5000/img/a.png");
    expect(proxiedUrl(rules, "/src/main.tsx")).toBeUndefined();
  });

  it("sends a previewed front end's fetch of /api/… to the program's server on the proxied port", async () => {
    const storage = await openStorage({ name: `server-proxy-${Date.now()}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    const servers = new LocalServers();
    const hub = new PreviewHub("http://app.test", () => "front");
    const runtime = createBrowserRuntime(files, { node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false, servers }), preview: hub });
    await files.writeFile("index.html", "<!doctype html><div id=root></div>");
    await files.writeFile("vite.config.js", "export default { server: { proxy: { '/api': 'http://localhost:3001' } } };");
    await files.writeFile("server.js", SERVER);
    const start = await runtime.startPreview!();
    expect((await runtime.previewRequest!(`${start.url}api/hello?y=2`))?.status).toBe(502);
    const controller = new AbortController();
    const run = runtime.exec("node server.js", { signal: controller.signal });
    await until(() => servers.ports().includes(3001), "the server to listen");
    const reply = await runtime.previewRequest!(`${start.url}api/hello?y=2`);
    expect(reply?.status).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(reply?.body as Uint8Array))).toEqual({ hello: "world", query: "y=2" });
    controller.abort();
    await run;
  });
});
