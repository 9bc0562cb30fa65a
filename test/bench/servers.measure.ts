// Servers in the browser runtime: a Preview→server JSON round trip, warm: a previewed page's
// fetch('/api/hello') as the Preview panel hands it on (runtime.previewRequest), through the vite.config's
// server.proxy and the page's port registry to a node program's http server and back. Measured in
// this process with the node runtime in-process (test/support/in-process-endpoint.ts): the page↔worker
// hops are timer turns here, postMessage in the browser; the routing and the http objects are the same code.
import { it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { PreviewHub } from "../../src/runtime/preview";
import { LocalServers, SandboxHost } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";
import { median, report } from "./report";

const ROUND_TRIPS = 50;

it("Preview → server JSON round trip (warm)", async () => {
  const storage = await openStorage({ name: `bench-servers-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  const servers = new LocalServers();
  const runtime = createBrowserRuntime(files, { node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false, servers }), preview: new PreviewHub("http://app.test") });
  await files.writeFile("index.html", "<!doctype html><div id=root></div>");
  await files.writeFile("vite.config.js", "export default { server: { proxy: { '/api': 'http://localhost:3001' } } };");
  await files.writeFile(
    "server.js",
    "require('http').createServer((req, res) => { res.setHeader('Content-Type', 'application/json'); res.end(JSON.stringify({ hello: 'world', at: req.url })); }).listen(3001);",
  );
  const { url } = await runtime.startPreview!();
  const controller = new AbortController();
  const run = runtime.exec("node server.js", { signal: controller.signal });
  for (let i = 0; i < 200 && !servers.ports().includes(3001); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  const times: number[] = [];
  for (let i = 0; i < ROUND_TRIPS + 5; i++) {
    const started = performance.now();
    const reply = await runtime.previewRequest!(`${url}api/hello?n=${i}`);
    const body = JSON.parse(new TextDecoder().decode(reply!.body as Uint8Array)) as { at: string };
    if (body.at !== `/api/hello?n=${i}`) throw new Error(`unexpected answer ${JSON.stringify(body)}`);
    if (i >= 5) times.push(performance.now() - started);
  }
  controller.abort();
  await run;
  report({
    name: `servers: Preview → node http server JSON round trip, warm (median of ${ROUND_TRIPS})`,
    value: Math.round(median(times) * 10) / 10,
    unit: "ms",
    target: "<= 20",
    note: "in-process node runtime in Node: page↔worker hops are timer turns, not postMessage",
  });
});
