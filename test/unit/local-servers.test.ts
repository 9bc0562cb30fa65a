// Servers of the browser runtime's node: a program's http.createServer().listen(PORT) registers
// localhost:PORT on the page (sandbox/local-servers.ts) for as long as it listens; curl in the
// shell and another program's http.get reach it there without the network or the egress gate, a
// second server on the same port gets EADDRINUSE, and the port is free again when the program ends
// (a local URL nobody here listens on is then the page's request, as before).
import { describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { LocalServers, SandboxHost } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";

let counter = 0;

const SERVER = [
  "const http = require('http');",
  "const port = Number(process.argv[2] || 3000);",
  "const server = http.createServer((req, res) => {",
  "  let body = '';",
  "  req.on('data', (c) => (body += c));",
  "  req.on('end', () => {",
  "    if (req.url === '/stream') { res.writeHead(200, { 'content-type': 'text/plain' }); res.write('first,'); setTimeout(() => res.end('second'), 20); return; }",
  "    if (req.url === '/stop') { res.end('bye'); server.close(); return; }",
  "    res.setHeader('Content-Type', 'application/json');",
  "    res.end(JSON.stringify({ method: req.method, url: req.url, host: req.headers.host, body, ...(req.url === '/length' ? { length: req.headers['content-length'] } : {}) }));",
  "  });",
  "});",
  "server.on('error', (e) => { console.error('server error', e.code); process.exitCode = 2; });",
  "server.listen(port, () => console.log('listening on', server.address().port));",
].join("\n");

async function setup() {
  const storage = await openStorage({ name: `local-servers-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  const servers = new LocalServers();
  const requested: string[] = [];
  const runtime = createBrowserRuntime(files, {
    node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false, servers }),
    fetch: async (input) => {
      requested.push(String(input));
      throw new TypeError("Failed to fetch");
    },
  });
  await files.writeFile("server.js", SERVER);
  return { files, runtime, servers, requested };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("servers of node programs on localhost", () => {
  it("curl reaches a listening program (GET, POST, a streamed body, -i), nothing goes to the network, and the port is freed when the server closes", async () => {
    const { runtime, servers, requested } = await setup();
    const changes: number[][] = [];
    servers.subscribe((ports) => changes.push(ports));
    const server = runtime.exec("node server.js 3000");
    await until(() => servers.ports().includes(3000), "the server to listen");

    // The agent's run, gated: curl to localhost is a command the gate sees, but no request it is asked about.
    const asked: string[] = [];
    const gate = { command: async () => undefined, request: async (request: { url: string }) => void asked.push(request.url) };
    const get = await runtime.exec("curl -s http://localhost:3000/hello?x=1", { source: "agent", gate });
    expect(asked).toEqual([]);
    const outside = await runtime.exec("curl -s https://example.test/", { source: "agent", gate });
    expect(outside.exitCode).toBe(7);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((url) => url === "https://example.test/")).toBe(true);
    requested.length = 0;
    expect(JSON.parse(get.output)).toEqual({ method: "GET", url: "/hello?x=1", host: "localhost:3000", body: "" });
    const post = await runtime.exec("curl -s -X POST -d 'a=1' http://127.0.0.1:3000/items");
    expect(JSON.parse(post.output)).toMatchObject({ method: "POST", url: "/items", body: "a=1" });
    // A fetch() (the Preview's, another page's) sends no Content-Length of its own; the server sees
    // one, as over a network, so body parsers read the body.
    const fetched = await servers.fetch("http://localhost:3000/length", { method: "POST", body: JSON.stringify({ n: 1 }) });
    expect(await fetched.json()).toMatchObject({ method: "POST", body: '{"n":1}', length: "7" });
    const streamed = await runtime.exec("curl -s -i http://localhost:3000/stream");
    expect(streamed.output).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(streamed.output).toContain("content-type: text/plain\r\n");
    expect(streamed.output.endsWith("\r\n\r\nfirst,second")).toBe(true);
    expect(requested).toEqual([]);

    const stop = await runtime.exec("curl -s http://localhost:3000/stop");
    expect(stop.output).toBe("bye");
    expect(await server).toEqual({ output: "listening on 3000\n", exitCode: 0 });
    expect(servers.ports()).toEqual([]);
    expect(changes).toEqual([[3000], []]);
    // Nobody here listens any more: the request is the page's, as before programs could listen
    // (a service of the user's machine may answer there; this test's page fetch refuses everything).
    const refused = await runtime.exec("curl http://localhost:3000/");
    expect(refused.exitCode).toBe(7);
    expect(refused.output).toContain("curl: (7) could not reach http://localhost:3000/");
    expect(requested[0]).toBe("http://localhost:3000/");
  });

  it("a second server on a taken port gets EADDRINUSE; another program's http.get reaches the first; Stop frees the port", async () => {
    const { files, runtime, servers } = await setup();
    const controller = new AbortController();
    const first = runtime.exec("node server.js 4000", { signal: controller.signal });
    await until(() => servers.ports().includes(4000), "the server to listen");
    const second = await runtime.exec("node server.js 4000");
    expect(second).toEqual({ output: "server error EADDRINUSE\n", exitCode: 2 });
    await files.writeFile(
      "client.mjs",
      "import http from 'node:http';\nhttp.get('http://localhost:4000/from-client', (res) => { let t = ''; res.on('data', (c) => (t += c)); res.on('end', () => console.log(res.statusCode, res.headers['content-type'], JSON.parse(t).url)); });\nhttp.get('http://localhost:4999/').on('error', (e) => console.log('other port', e.code));",
    );
    const client = await runtime.exec("node client.mjs");
    expect(client.output.split("\n").sort()).toEqual(["", "200 application/json /from-client", "other port ECONNREFUSED"]);
    controller.abort();
    expect((await first).exitCode).toBe(143);
    expect(servers.ports()).toEqual([]);
  });

  it("listen(0) gets a free port, which address() reports and curl reaches", async () => {
    const { runtime, servers } = await setup();
    const controller = new AbortController();
    const run = runtime.exec("node server.js 0", { signal: controller.signal });
    await until(() => servers.ports().length === 1, "the server to listen");
    const [port] = servers.ports();
    expect(port).toBeGreaterThanOrEqual(32768);
    expect(JSON.parse((await runtime.exec(`curl -s localhost:${port}/x`)).output).url).toBe("/x");
    controller.abort();
    expect((await run).output.startsWith(`listening on ${port}\n`)).toBe(true);
  });

  it("a server in a worker thread is the program's: curl reaches it (GET, POST), its port is listed, and freed when the thread ends", async () => {
    const { files, runtime, servers } = await setup();
    await files.writeFile(
      "threaded.js",
      [
        "const { Worker, isMainThread } = require('worker_threads');",
        "if (isMainThread) new Worker(__filename, { argv: process.argv.slice(2) }).on('exit', (code) => console.log('thread exit', code));",
        "else require('./server.js');",
      ].join("\n"),
    );
    const run = runtime.exec("node threaded.js 3100");
    await until(() => servers.ports().includes(3100), "the thread's server to listen");
    expect(JSON.parse((await runtime.exec("curl -s localhost:3100/in-thread?x=1")).output)).toEqual({ method: "GET", url: "/in-thread?x=1", host: "localhost:3100", body: "" });
    expect(JSON.parse((await runtime.exec("curl -s -X POST -d 'a=1' http://127.0.0.1:3100/items")).output)).toMatchObject({ method: "POST", body: "a=1" });
    expect((await runtime.exec("curl -s localhost:3100/stream")).output).toBe("first,second");
    expect((await runtime.exec("curl -s localhost:3100/stop")).output).toBe("bye");
    expect((await run).output).toBe("listening on 3100\nthread exit 0\n");
    expect(servers.ports()).toEqual([]);
  });
});

describe("what the browser runtime's servers refuse", () => {
  it("an upgrade (WebSocket) request to a server that handles 'upgrade' gets 501 with a line saying why; net sockets fail naming WebContainer; net.isIP works", async () => {
    const { files, runtime, servers } = await setup();
    await files.writeFile(
      "ws.js",
      "const http = require('http');\nconst net = require('net');\nconsole.log(net.isIP('127.0.0.1'), net.isIP('::1'), net.isIP('nope'), net.isIPv4('1.2.3.4'));\ntry { net.createServer(); } catch (e) { console.log(e.code); }\nconst server = http.createServer((req, res) => res.end('plain'));\nserver.on('upgrade', () => console.log('never'));\nserver.listen(5000);",
    );
    const controller = new AbortController();
    const run = runtime.exec("node ws.js", { signal: controller.signal });
    await until(() => servers.ports().includes(5000), "the server to listen");
    const response = await servers.fetch("http://localhost:5000/socket", { headers: { upgrade: "websocket" } });
    expect(response.status).toBe(501);
    expect(await response.text()).toBe("websocket upgrades are not available in the browser runtime's servers (requests reach them as messages, not sockets); WebContainer runs them.\n");
    expect(await (await servers.fetch("http://localhost:5000/")).text()).toBe("plain");
    controller.abort();
    expect((await run).output).toBe("4 6 0 true\nERR_WEBCODE_NEEDS_WEBCONTAINER\nCommand aborted.\n");
  });
});

describe("a server started in the background", () => {
  it("`node server.js 3000 &` returns at once and keeps serving: curl on the same line and later reaches it; the runtime's disposal ends it", async () => {
    const { runtime, servers } = await setup();
    const started = Date.now();
    const line = await runtime.exec("node server.js 3000 & sleep 0.2; curl -s localhost:3000/same-line", { source: "agent" });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(JSON.parse(line.output.slice(line.output.indexOf("{"))).url).toBe("/same-line");
    expect(servers.ports()).toEqual([3000]);
    const later = await runtime.exec("curl -s localhost:3000/later", { source: "agent" });
    expect(JSON.parse(later.output).url).toBe("/later");
    runtime.dispose();
    await until(() => servers.ports().length === 0, "the job to end");
  });
});
