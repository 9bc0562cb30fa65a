// worker_threads' Worker in the browser runtime (run in-process: each thread another instance of the
// runtime behind a real MessageChannel, test/support/in-process-threads.ts), each program also run by
// the machine's Node: the output must be the one written here and the same as Node's.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runNodeInProcess } from "../support/run-node";

const lines = (...text: string[]) => text.join("\n");

interface Case {
  name: string;
  main: string;
  files: Record<string, string>;
  expected: string;
  exitCode?: number;
}

const CASES: Case[] = [
  {
    name: "workerData round trip, messages both ways, 'online', a file the thread wrote, 'exit'",
    main: "main.js",
    files: {
      "main.js": lines(
        "const { Worker, isMainThread, parentPort, workerData, threadId } = require('worker_threads');",
        "const fs = require('fs');",
        "if (isMainThread) {",
        "  const w = new Worker(__filename, { workerData: { n: 21, list: [1, 2], when: new Date(0) } });",
        "  w.on('online', () => console.log('online'));",
        "  w.on('message', (m) => { console.log('main got', JSON.stringify(m)); if (m.done) w.postMessage('bye'); });",
        "  w.on('exit', (code) => console.log('exit', code, fs.readFileSync('out.txt', 'utf8')));",
        "  w.postMessage({ hello: 'thread' });",
        "} else {",
        "  parentPort.on('message', (m) => {",
        "    if (m === 'bye') process.exit(0);",
        "    console.log('thread got', JSON.stringify(m), threadId, workerData.when instanceof Date);",
        "    fs.writeFileSync('out.txt', 'written by thread');",
        "    parentPort.postMessage({ doubled: workerData.n * 2, list: workerData.list, done: true });",
        "  });",
        "}",
      ),
    },
    expected: lines("online", 'thread got {"hello":"thread"} 1 true', 'main got {"doubled":42,"list":[1,2],"done":true}', "exit 0 written by thread", ""),
  },
  {
    name: "new Worker(new URL(…, import.meta.url)) with a SharedArrayBuffer and Atomics shared, argv, env, process.exit's code",
    main: "main.mjs",
    files: {
      "main.mjs": lines(
        "import { Worker } from 'node:worker_threads';",
        "const sab = new SharedArrayBuffer(8);",
        "const cells = new Int32Array(sab);",
        "const w = new Worker(new URL('./thread.mjs', import.meta.url), { workerData: { sab, greeting: 'hi' }, argv: ['x', 2], env: { ONLY: 'this' } });",
        "const woken = Atomics.waitAsync(cells, 1, 0).value;",
        "w.on('message', (m) => console.log('message', JSON.stringify(m)));",
        "w.on('exit', (code) => woken.then((result) => console.log('woken', result, Atomics.load(cells, 0), Atomics.load(cells, 1), 'exit', code)));",
      ),
      "thread.mjs": lines(
        "import { workerData, parentPort, isMainThread, threadId } from 'node:worker_threads';",
        "const cells = new Int32Array(workerData.sab);",
        "for (let i = 0; i < 1000; i++) Atomics.add(cells, 0, 1);",
        "parentPort.postMessage({ isMainThread, threadId, greeting: workerData.greeting, argv: process.argv.slice(2), env: process.env.ONLY, path: process.env.PATH });",
        "Atomics.store(cells, 1, 7);",
        "Atomics.notify(cells, 1);",
        "process.exit(3);",
      ),
    },
    expected: lines('message {"isMainThread":false,"threadId":1,"greeting":"hi","argv":["x","2"],"env":"this"}', "woken ok 1000 7 exit 3", ""),
  },
  {
    name: "eval workers: an uncaught error is the Worker's 'error' (not printed), terminate() ends a running thread, a bad path, unref()",
    main: "main.js",
    files: {
      "main.js": lines(
        "const { Worker } = require('worker_threads');",
        "const w = new Worker(\"throw new TypeError('bad thing')\", { eval: true });",
        "w.on('error', (e) => console.log('error', e instanceof Error, e.name, e.message));",
        "w.on('exit', (c) => {",
        "  console.log('exit', c);",
        "  const t = new Worker(\"setInterval(() => {}, 1000); require('worker_threads').parentPort.postMessage('started')\", { eval: true });",
        "  t.on('message', async (m) => { console.log(m); const code = await t.terminate(); console.log('terminated', code); console.log('again', await t.terminate()); });",
        "  t.on('exit', (code) => console.log('t exit', code));",
        "});",
        "try { new Worker('thread.js'); } catch (e) { console.log(e.code, e.message); }",
        "const u = new Worker(\"setTimeout(() => console.log('never printed'), 5000)\", { eval: true });",
        "u.unref();",
      ),
    },
    expected: lines(
      `ERR_WORKER_PATH The worker script or module filename must be an absolute path or a relative path starting with './' or '../'. Received "thread.js"`,
      "error true TypeError bad thing",
      "exit 1",
      "started",
      "t exit 1",
      "terminated 1",
      "again undefined",
      "",
    ),
  },
  {
    name: "the global MessageChannel is worker_threads' (Node's): ref() on a port keeps the program alive with no listener until unref(), as emnapi's async work relies on",
    main: "main.js",
    files: {
      "main.js": lines(
        "const wt = require('worker_threads');",
        "const { port1 } = new MessageChannel();",
        "console.log(MessageChannel === wt.MessageChannel, MessagePort === wt.MessagePort, port1 instanceof wt.MessagePort, typeof port1.ref);",
        "port1.ref();",
        // A compile is no timer: only the ref'd port keeps the program waiting for it.
        "WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => { console.log('compiled'); port1.unref(); });",
        "const { port1: idle } = new MessageChannel();",
        "idle.ref(); idle.unref();",
      ),
    },
    expected: lines("true true true function", "compiled", ""),
  },
  {
    name: "MessagePorts transferred: in workerData, by worker.postMessage, by parentPort.postMessage, through another port; Node's port shape, 'close' on the far end",
    main: "main.js",
    files: {
      "main.js": lines(
        "const { Worker, MessageChannel, MessagePort, isMainThread, parentPort, workerData } = require('worker_threads');",
        "const shape = (p) => [p instanceof MessagePort, typeof p.on, typeof p.postMessage, typeof p.close, typeof p.ref, typeof p.unref].join(' ');",
        "if (isMainThread) {",
        "  const a = new MessageChannel();",
        "  const b = new MessageChannel();",
        "  const c = new MessageChannel();",
        "  const w = new Worker(__filename, { workerData: { port: a.port2, tag: 'wd' }, transferList: [a.port2] });",
        "  a.port1.on('message', (m) => {",
        "    console.log('a:', JSON.stringify(m));",
        "    if (m.step === 1) w.postMessage({ port: b.port2, list: [1, 2] }, [b.port2]);",
        "  });",
        "  a.port1.on('close', () => console.log('a closed'));",
        "  b.port1.on('message', (m) => {",
        "    console.log('b:', m);",
        "    a.port1.postMessage({ inner: c.port2 }, [c.port2]);",
        "  });",
        "  c.port1.on('message', (m) => console.log('c:', m));",
        "  w.on('message', (m) => {",
        "    if (typeof m === 'string') {",
        "      console.log('main got', m);",
        "      for (const p of [a.port1, b.port1, c.port1]) p.close();",
        "      return;",
        "    }",
        "    console.log('d shape', shape(m));",
        "    m.on('message', (text) => { console.log('d:', text); m.close(); });",
        "  });",
        "  w.on('exit', (code) => console.log('exit', code));",
        "} else {",
        "  const port = workerData.port;",
        "  port.postMessage({ step: 1, tag: workerData.tag, shape: shape(port) });",
        "  parentPort.once('message', ({ port: posted, list }) => posted.postMessage('posted ' + shape(posted) + ' ' + list.join(',')));",
        "  port.on('message', ({ inner }) => {",
        "    inner.postMessage('inner ' + shape(inner));",
        "    const d = new MessageChannel();",
        "    d.port2.on('close', () => parentPort.postMessage('thread saw d close'));",
        "    parentPort.postMessage(d.port1, [d.port1]);",
        "    d.port2.postMessage('from thread');",
        "  });",
        "  port.on('close', () => process.exit(0));",
        "}",
      ),
    },
    expected: lines(
      'a: {"step":1,"tag":"wd","shape":"true function function function function function"}',
      "b: posted true function function function function function 1,2",
      "c: inner true function function function function function",
      "d shape true function function function function function",
      "d: from thread",
      "main got thread saw d close",
      "a closed",
      "exit 0",
      "",
    ),
  },
  {
    name: "resourceLimits: accepted, the Worker's getter answers Node's for a worker not yet running and {} once it ended; the main thread's is {}",
    main: "main.js",
    files: {
      "main.js": lines(
        "const { Worker, resourceLimits } = require('worker_threads');",
        "console.log('main', JSON.stringify(resourceLimits));",
        "const w = new Worker('1', { eval: true, resourceLimits: { maxOldGenerationSizeMb: 64 } });",
        "console.log('asked', JSON.stringify(w.resourceLimits));",
        "const plain = new Worker('1', { eval: true });",
        "console.log('plain', JSON.stringify(plain.resourceLimits));",
        "w.on('exit', (code) => console.log('exit', code, JSON.stringify(w.resourceLimits)));",
      ),
    },
    expected: lines(
      "main {}",
      'asked {"maxYoungGenerationSizeMb":-1,"maxOldGenerationSizeMb":64,"codeRangeSizeMb":-1,"stackSizeMb":4}',
      'plain {"maxYoungGenerationSizeMb":-1,"maxOldGenerationSizeMb":-1,"codeRangeSizeMb":-1,"stackSizeMb":4}',
      "exit 0 {}",
      "",
    ),
  },
  {
    name: "a server in a thread: http.createServer().listen(0) in the thread, reached by http.get and a POST with a body from the main program; close() lets the thread end",
    main: "main.js",
    files: {
      "main.js": lines(
        "const { Worker, isMainThread, parentPort } = require('worker_threads');",
        "const http = require('http');",
        "if (isMainThread) {",
        "  const w = new Worker(__filename);",
        "  w.once('message', (port) => {",
        "    http.get({ port, path: '/hello?x=1', headers: { 'x-who': 'main' } }, (res) => {",
        "      let body = '';",
        "      res.on('data', (d) => body += d);",
        "      res.on('end', () => {",
        "        console.log('get', res.statusCode, res.headers['content-type'], body);",
        "        const req = http.request({ port, path: '/posted', method: 'POST' }, (posted) => {",
        "          let text = '';",
        "          posted.on('data', (d) => text += d);",
        "          posted.on('end', () => { console.log('post', posted.statusCode, text); w.postMessage('close'); });",
        "        });",
        "        req.end('a body');",
        "      });",
        "    });",
        "  });",
        "  w.on('exit', (code) => console.log('exit', code));",
        "} else {",
        "  const server = http.createServer((req, res) => {",
        "    let body = '';",
        "    req.on('data', (d) => body += d);",
        "    req.on('end', () => {",
        "      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'text/plain' });",
        "      res.end(`${req.method} ${req.url} ${req.headers['x-who'] || '-'} ${body}`);",
        "    });",
        "  });",
        "  server.listen(0, () => parentPort.postMessage(server.address().port));",
        "  parentPort.on('message', () => { server.close(); parentPort.close(); });",
        "}",
      ),
    },
    expected: lines("get 200 text/plain GET /hello?x=1 main ", "post 201 POST /posted - a body", "exit 0", ""),
  },
  {
    name: "receiveMessageOnPort takes the values that arrived on a port (a MessageChannel's, a thread's parentPort) without a listener, then undefined; a non-port is a TypeError",
    main: "main.js",
    files: {
      "main.js": lines(
        "const { Worker, MessageChannel, receiveMessageOnPort, isMainThread, parentPort } = require('worker_threads');",
        "if (isMainThread) {",
        "  const { port1, port2 } = new MessageChannel();",
        "  port1.postMessage({ a: 1 });",
        "  port1.postMessage('two');",
        "  setTimeout(() => {",
        "    console.log(JSON.stringify(receiveMessageOnPort(port2)), JSON.stringify(receiveMessageOnPort(port2)), receiveMessageOnPort(port2));",
        "    try { receiveMessageOnPort({}); } catch (e) { console.log(e.code); }",
        "    port1.close();",
        "    const w = new Worker(__filename);",
        "    w.postMessage('first');",
        "    w.postMessage('second');",
        "    w.on('message', (m) => console.log('thread took', JSON.stringify(m)));",
        "  }, 50);",
        "} else {",
        "  setTimeout(() => parentPort.postMessage([receiveMessageOnPort(parentPort), receiveMessageOnPort(parentPort), receiveMessageOnPort(parentPort) ?? null]), 200);",
        "}",
      ),
    },
    expected: lines('{"message":{"a":1}} {"message":"two"} undefined', "ERR_INVALID_ARG_TYPE", 'thread took [{"message":"first"},{"message":"second"},null]', ""),
  },
  {
    name: "a task pool as tinypool and piscina build it: an EventEmitterAsyncResource pool, a MessageChannel per thread whose port goes to it in a message, tasks and answers on the ports",
    main: "main.js",
    files: {
      "main.js": lines(
        "const { Worker, MessageChannel, isMainThread, parentPort } = require('worker_threads');",
        "const { EventEmitterAsyncResource } = require('events');",
        "if (isMainThread) {",
        "  class Pool extends EventEmitterAsyncResource {",
        "    constructor(size) {",
        "      super({ name: 'Pool' });",
        "      this.threads = [];",
        "      this.pending = new Map();",
        "      this.next = 0;",
        "      for (let i = 0; i < size; i++) {",
        "        const worker = new Worker(__filename);",
        "        const { port1, port2 } = new MessageChannel();",
        "        worker.postMessage({ port: port2, index: i }, [port2]);",
        "        port1.on('message', ({ id, result }) => { this.pending.get(id)(result); this.pending.delete(id); this.emit('done', id); });",
        "        this.threads.push({ worker, port: port1 });",
        "      }",
        "    }",
        "    run(task) {",
        "      const id = this.next++;",
        "      const thread = this.threads[id % this.threads.length];",
        "      return new Promise((resolve) => { this.pending.set(id, resolve); thread.port.postMessage({ id, task }); });",
        "    }",
        "    async destroy() { await Promise.all(this.threads.map(({ worker, port }) => { port.close(); return worker.terminate(); })); }",
        "  }",
        "  const pool = new Pool(2);",
        "  let done = 0;",
        "  pool.on('done', () => done++);",
        "  console.log(typeof pool.asyncId, pool.asyncResource.eventEmitter === pool);",
        "  Promise.all([1, 2, 3, 4, 5].map((a) => pool.run({ a, b: 10 }))).then(async (results) => {",
        "    console.log(results.map((r) => r.sum).join(','), [...new Set(results.map((r) => r.index))].sort().join(','), done);",
        "    await pool.destroy();",
        "    console.log('destroyed');",
        "  });",
        "} else {",
        "  parentPort.once('message', ({ port, index }) => {",
        "    port.on('message', ({ id, task }) => setTimeout(() => port.postMessage({ id, result: { sum: task.a + task.b, index } }), 5));",
        "  });",
        "}",
      ),
    },
    expected: lines("number true", "11,12,13,14,15 0,1 5", "destroyed", ""),
  },
  {
    name: "a thread's http.request reaches the main program's server (relayed as the program's own request)",
    main: "main.js",
    files: {
      "main.js": lines(
        "const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');",
        "const http = require('http');",
        "if (isMainThread) {",
        "  const server = http.createServer((req, res) => res.end(`main served ${req.method} ${req.url}`));",
        "  server.listen(0, () => {",
        "    const w = new Worker(__filename, { workerData: server.address().port });",
        "    w.on('message', (m) => { console.log('thread got', m); server.close(); });",
        "    w.on('exit', (code) => console.log('exit', code));",
        "  });",
        "} else {",
        "  http.get({ port: workerData, path: '/from-thread' }, (res) => {",
        "    let body = '';",
        "    res.on('data', (d) => body += d);",
        "    res.on('end', () => parentPort.postMessage(`${res.statusCode} ${body}`));",
        "  });",
        "}",
      ),
    },
    expected: lines("thread got 200 main served GET /from-thread", "exit 0", ""),
  },
];

describe("worker_threads Worker in the browser runtime, against the machine's Node", () => {
  const root = mkdtempSync(path.join(tmpdir(), "webcode-threads-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each(CASES)("$name", async ({ main, files, expected, exitCode = 0 }) => {
    const ours = await runNodeInProcess([main], files);
    expect({ stdout: ours.stdout, stderr: ours.stderr, exitCode: ours.exitCode }).toEqual({ stdout: expected, stderr: "", exitCode });
    const dir = mkdtempSync(path.join(root, "p-"));
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
    const real = spawnSync(process.execPath, [main], { cwd: dir, encoding: "utf8", timeout: 20_000 });
    expect({ stdout: real.stdout, stderr: real.stderr, exitCode: real.status }).toEqual({ stdout: expected, stderr: "", exitCode });
  });
});
