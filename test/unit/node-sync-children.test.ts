// execSync, execFileSync and spawnSync in the browser runtime: the program's worker (here a real
// Node thread running the bundled runtime, test/support/node-thread-runtime.ts) blocks on its shared
// mailbox while the host runs the child in the shell and hands back its result and file changes.
// Also what only real threads show of worker_threads: a thread blocked in Atomics.wait, and
// terminate() of a thread in an endless loop.
// Each program also runs in the machine's Node: the output must be the one written here and Node's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime/workspace-files";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { SandboxHost, type SandboxEndpointFactory } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { nodeThreadEndpoints } from "../support/node-thread-runtime";
import { realNodeOutput } from "../support/real-node";

let endpoints: SandboxEndpointFactory;
let counter = 0;

beforeAll(async () => {
  endpoints = await nodeThreadEndpoints();
}, 60_000);

async function both(program: string, extra: Record<string, string> = {}) {
  const storage = await openStorage({ name: `node-sync-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  const runtime = createBrowserRuntime(files, { node: new SandboxHost(endpoints, { keepSpare: false }) });
  await files.writeFile("main.js", program);
  for (const [path, text] of Object.entries(extra)) await files.writeFile(path, text);
  const ours = await runtime.exec("node main.js; echo \"exit=$?\"");
  const dir = mkdtempSync(join(tmpdir(), "sync-diff-"));
  try {
    const real = realNodeOutput(dir, program, extra);
    return { ours: ours.output, real, files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("synchronous child processes in the browser runtime", () => {
  it("execSync returns a shell line's stdout (Buffer, or text with encoding), passes input, cwd and env", async () => {
    const { ours, real } = await both(`
const { execSync } = require('child_process');
const fs = require('fs');
fs.mkdirSync('sub', { recursive: true });
fs.writeFileSync('sub/data.txt', 'from the parent\\n');
const out = execSync('echo one two | wc -w');
console.log(Buffer.isBuffer(out), out.toString().trim());
console.log(execSync('cat data.txt; pwd | sed "s|.*/||"', { cwd: 'sub', encoding: 'utf8' }).trim().split('\\n').join(' / '));
console.log(execSync('cat', { input: 'typed in', encoding: 'utf8' }));
console.log(execSync('echo $GREETING-$HOME_SET', { env: { GREETING: 'hi', PATH: process.env.PATH }, encoding: 'utf8' }).trim());
console.log(execSync('node child.js 5', { encoding: 'utf8' }).trim());
`, { "child.js": "require('fs').writeFileSync('made-by-child.txt', 'x'.repeat(Number(process.argv[2]))); console.log('child', process.argv[2]);" });
    expect(ours).toBe("true 2\nfrom the parent / sub\ntyped in\nhi-\nchild 5\nexit=0\n");
    expect(ours).toBe(real);
  });

  it("execSync and spawnSync inside a worker thread: the thread waits on its Worker's mailbox while the program runs the child; the thread sees the child's files", async () => {
    const { ours, real } = await both(`
const { Worker, isMainThread, parentPort } = require('worker_threads');
const { execSync, spawnSync } = require('child_process');
const fs = require('fs');
if (isMainThread) {
  const w = new Worker(__filename);
  w.on('message', (m) => console.log('main got', JSON.stringify(m)));
  w.on('exit', (code) => console.log('thread exit', code));
} else {
  const out = execSync('echo one two | wc -w', { encoding: 'utf8' }).trim();
  const child = spawnSync('node', ['child.js', '3'], { encoding: 'utf8' });
  let failed;
  try { execSync('echo bad >&2; exit 4', { stdio: 'pipe' }); } catch (e) { failed = [e.status, String(e.stderr).trim()]; }
  parentPort.postMessage({ out, child: [child.status, child.stdout.trim()], file: fs.readFileSync('made-by-child.txt', 'utf8'), failed });
}
`, { "child.js": "require('fs').writeFileSync('made-by-child.txt', 'x'.repeat(Number(process.argv[2]))); console.log('child', process.argv[2]); process.exit(2);" });
    expect(ours).toBe('main got {"out":"2","child":[2,"child 3"],"file":"xxx","failed":[4,"bad"]}\nthread exit 0\nexit=0\n');
    expect(ours).toBe(real);
  });

  it("a non-zero exit throws Node's error (status, stdout, stderr, message with stderr), and the parent sees the child's files at once", async () => {
    const { ours, real, files } = await both(`
const { execSync, execFileSync } = require('child_process');
const fs = require('fs');
try {
  execSync('echo partial; echo broken >&2; exit 3', { stdio: 'pipe' });
} catch (error) {
  console.log(error.status, error.signal, JSON.stringify(error.stdout.toString()), JSON.stringify(error.stderr.toString()), JSON.stringify(error.message));
}
execFileSync('node', ['child.js'], { stdio: 'inherit' });
console.log('sees', fs.readFileSync('made.txt', 'utf8'));
try {
  execFileSync('node', ['-e', 'process.exit(4)']);
} catch (error) {
  console.log('execFileSync', error.status, error.message);
}
`, { "child.js": "require('fs').writeFileSync('made.txt', 'by the child'); console.log('child printed');" });
    expect(ours).toBe('3 null "partial\\n" "broken\\n" "Command failed: echo partial; echo broken >&2; exit 3\\nbroken\\n"\nchild printed\nsees by the child\nexecFileSync 4 Command failed: node -e process.exit(4)\nexit=0\n');
    expect(ours).toBe(real);
    expect(await files.readText("made.txt")).toBe("by the child");
  });

  it("spawnSync gives status, signal, output, stdout and stderr; a missing program is ENOENT in result.error", async () => {
    const { ours, real } = await both(`
const { spawnSync } = require('child_process');
const r = spawnSync('node', ['-e', 'console.log("out"); console.error("err"); process.exit(2)']);
console.log(r.status, r.signal, Buffer.isBuffer(r.stdout), r.stdout.toString(), r.stderr.toString().trim(), r.output.length, r.output[0]);
const t = spawnSync('echo', ['a  b', 'c'], { encoding: 'utf8' });
console.log(JSON.stringify(t.stdout), t.status);
const missing = spawnSync('no-such-program-here', ['x']);
console.log(missing.error.code, missing.error.message, missing.error.syscall, missing.status, missing.stdout);
`);
    expect(ours).toBe('2 null true out\n err 3 null\n"a  b c\\n" 0\nENOENT spawnSync no-such-program-here ENOENT spawnSync no-such-program-here null null\nexit=0\n');
    expect(ours).toBe(real);
  });

  it("a Worker on a real thread blocks in Atomics.wait until the program notifies it, and terminate() ends one in an endless loop", async () => {
    const { ours, real } = await both(`
const { Worker } = require('worker_threads');
const cells = new Int32Array(new SharedArrayBuffer(8));
const code = "const { workerData, parentPort } = require('worker_threads'); const c = new Int32Array(workerData); parentPort.postMessage('waiting'); const r = Atomics.wait(c, 0, 0); parentPort.postMessage(r + ' ' + Atomics.load(c, 0));";
const w = new Worker(code, { eval: true, workerData: cells.buffer });
w.on('message', (m) => {
  console.log(m);
  if (m === 'waiting') setTimeout(() => { Atomics.store(cells, 0, 5); Atomics.notify(cells, 0); }, 50);
});
w.on('exit', (code) => {
  console.log('exit', code);
  const spin = new Worker("require('worker_threads').parentPort.postMessage('spinning'); for (;;) {}", { eval: true });
  spin.on('message', (m) => { console.log(m); spin.terminate().then((c) => console.log('terminated', c)); });
});
`);
    expect(ours).toBe("waiting\nok 5\nexit 0\nspinning\nterminated 1\nexit=0\n");
    expect(ours).toBe(real);
  });
});
