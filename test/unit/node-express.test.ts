// Express (5, the repository's exact devDependency) on the browser runtime's node: its package and
// dependencies as a workspace's node_modules, an app with express.json(), a route with a query, a
// POST with a JSON body, a 404 handler, app.listen and a request from the same program; the same
// program runs in this machine's Node and prints the same.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { installedPackageFiles } from "../support/installed-packages";
import { runNodeInProcess } from "../support/run-node";

const APP = `const express = require('express');
const http = require('http');
const app = express();
app.use(express.json());
app.get('/api/hello', (req, res) => res.json({ hello: 'world', x: req.query.x, ip: typeof req.ip }));
app.post('/api/echo', (req, res) => res.status(201).set('X-Echo', 'yes').json({ got: req.body }));
app.use((req, res) => res.status(404).send('nope'));
const server = app.listen(3000, async () => {
  const call = (method, p, body) => new Promise((resolve, reject) => {
    const req = http.request({ port: 3000, path: p, method, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve([res.statusCode, res.headers['content-type'], res.headers['x-echo'], res.headers['x-powered-by'], text]));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
  console.log(await call('GET', '/api/hello?x=1'));
  console.log(await call('POST', '/api/echo', JSON.stringify({ a: [1, 2] })));
  console.log(await call('GET', '/missing'));
  server.close(() => console.log('closed'));
});
`;

it("an Express app serves JSON routes, a JSON body and a 404 as in Node, and ends when its server closes", async () => {
  const files = { ...installedPackageFiles(["express"]), "app.js": APP };
  const ours = await runNodeInProcess(["app.js"], files, { timeoutMs: 20_000 });
  expect(ours.stderr).toBe("");
  expect(ours.stdout.replace(/\s+/g, " ")).toContain("[ 201, 'application/json; charset=utf-8', 'yes', 'Express', '{\"got\":{\"a\":[1,2]}}' ]");
  expect(ours.stdout.endsWith("closed\n")).toBe(true);

  const dir = mkdtempSync(path.join(tmpdir(), "webcode-express-"));
  try {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    const real = spawnSync(process.execPath, ["app.js"], { cwd: dir, encoding: "utf8", timeout: 20_000 });
    expect(real.stderr).toBe("");
    expect(ours.stdout).toBe(real.stdout);
    expect(ours.exitCode).toBe(real.status);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
