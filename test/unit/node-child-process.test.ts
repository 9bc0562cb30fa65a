// node:child_process in the browser runtime: children run through the shell (node scripts and
// shell commands), with their output, exit codes, signals and file changes; the same programs are
// run by the machine's Node and must print the same.
import { mkdtempSync, rmSync, readFileSync, existsSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime/workspace-files";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { SandboxHost } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import type { ExecGate } from "../../src/runtime/egress";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";
import { realNodeOutput } from "../support/real-node";

let counter = 0;

async function setup() {
  const storage = await openStorage({ name: `node-child-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  const runtime = createBrowserRuntime(files, { node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false }) });
  return { files, runtime };
}

/** Runs `main.js` (with `extra` files beside it) in the browser runtime and in the machine's Node. */
async function both(program: string, extra: Record<string, string> = {}) {
  const { files, runtime } = await setup();
  await files.writeFile("main.js", program);
  for (const [path, text] of Object.entries(extra)) await files.writeFile(path, text);
  const ours = await runtime.exec("node main.js; echo \"exit=$?\"");
  const dir = mkdtempSync(join(tmpdir(), "child-diff-"));
  try {
    const real = realNodeOutput(dir, program, extra);
    return { ours: ours.output, real, files, dir, realFile: (path: string) => (existsSync(join(dir, path)) ? readFileSync(join(dir, path), "utf8") : undefined) };
  } finally {
    setTimeout(() => rmSync(dir, { recursive: true, force: true }), 0);
  }
}

describe("child_process in the browser runtime", () => {
  it("spawns a node script with piped stdio, arguments and env, and reports exit then close", async () => {
    const { ours, real } = await both(`
const { spawn } = require('child_process');
const child = spawn('node', ['child.js', 'a b', "it's"], { env: { ...process.env, GREETING: 'hi' } });
let out = '';
child.stdout.on('data', (d) => out += d);
child.stderr.on('data', (d) => console.log('stderr:', String(d).trim()));
child.on('exit', (code, signal) => console.log('exit', code, signal));
child.on('close', (code) => { console.log('close', code); console.log(out.trim()); process.exitCode = code; });
`, { "child.js": "console.log(process.env.GREETING, JSON.stringify(process.argv.slice(2))); console.error('oops'); process.exit(3);" });
    expect(ours).toBe('stderr: oops\nexit 3 null\nclose 3\nhi ["a b","it\'s"]\nexit=3\n');
    expect(ours).toBe(real);
  });

  it("a worker thread's children run as the program's: exec and spawn from the thread, their output and exit codes, a file the child wrote read by the thread", async () => {
    const { ours, real } = await both(`
const { Worker, isMainThread, parentPort } = require('worker_threads');
const { exec, spawn } = require('child_process');
const fs = require('fs');
if (isMainThread) {
  const w = new Worker(__filename);
  w.on('message', (m) => console.log('main got', JSON.stringify(m)));
  w.on('exit', (code) => console.log('thread exit', code));
} else {
  exec('echo from shell; exit 2', (error, stdout) => {
    const child = spawn('node', ['child.js'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => out += d);
    child.on('close', (code) => parentPort.postMessage({ exec: [error.code, stdout.trim()], spawn: [code, out.trim()], file: fs.readFileSync('written.txt', 'utf8') }));
  });
}
`, { "child.js": "require('fs').writeFileSync('written.txt', 'by the child'); console.log('child ran'); process.exit(5);" });
    expect(ours).toBe('main got {"exec":[2,"from shell"],"spawn":[5,"child ran"],"file":"by the child"}\nthread exit 0\nexit=0\n');
    expect(ours).toBe(real);
  });

  it("exec runs a shell line (pipes, $?) and gives stdout, stderr and a failure as Node's callback and promisify do", async () => {
    const { ours, real } = await both(`
const { exec } = require('child_process');
const { promisify } = require('util');
exec('echo one two | wc -w', (error, stdout) => {
  console.log('words', stdout.trim(), error);
  exec('echo bad >&2; exit 4', (error2, stdout2, stderr2) => {
    console.log(error2.code, JSON.stringify(stderr2), error2.message.split('\\n')[0]);
    promisify(exec)('echo promised').then(({ stdout, stderr }) => console.log(stdout.trim(), JSON.stringify(stderr)));
  });
});
`);
    expect(ours).toBe('words 2 null\n4 "bad\\n" Command failed: echo bad >&2; exit 4\npromised ""\nexit=0\n');
    expect(ours).toBe(real);
  });

  it("a child sees the parent's writes and the parent sees the child's after it ends", async () => {
    const { ours, real, files, realFile } = await both(`
const fs = require('fs');
const { execFile } = require('child_process');
fs.writeFileSync('before.txt', 'from parent');
fs.writeFileSync('gone.txt', 'soon gone');
execFile('node', ['-e', "const fs=require('fs'); fs.writeFileSync('after.txt', fs.readFileSync('before.txt','utf8') + ' via child'); fs.rmSync('gone.txt')"], (error) => {
  console.log(error, fs.readFileSync('after.txt', 'utf8'), fs.existsSync('gone.txt'), fs.readFileSync('before.txt', 'utf8'));
});
`);
    expect(ours).toBe("null from parent via child false from parent\nexit=0\n");
    expect(ours).toBe(real);
    expect(await files.readText("after.txt")).toBe(realFile("after.txt"));
  });

  it("writes a child's input, inherits stdio, and emits ENOENT for a program that does not exist", async () => {
    const { ours, real } = await both(`
const { spawn } = require('child_process');
const cat = spawn('cat');
cat.stdout.on('data', (d) => console.log('cat:', String(d)));
cat.on('close', (code) => {
  console.log('cat closed', code);
  const inherit = spawn('node', ['-e', 'console.log("inherited")'], { stdio: 'inherit' });
  inherit.on('close', (c) => {
    console.log('inherit closed', c, inherit.stdout);
    const missing = spawn('no-such-program-here');
    missing.on('error', (e) => console.log('error', e.code, e.syscall));
    missing.on('close', (c2) => console.log('missing closed', c2));
  });
});
cat.stdin.write('piped ');
cat.stdin.end('in');
`);
    expect(ours).toBe("cat: piped in\ncat closed 0\ninherited\ninherit closed 0 null\nerror ENOENT spawn no-such-program-here\nmissing closed -2\nexit=0\n");
    expect(ours).toBe(real);
  });

  it("kill() ends a running child with SIGTERM", async () => {
    const { ours, real } = await both(`
const { spawn } = require('child_process');
const child = spawn('node', ['-e', 'setTimeout(() => console.log("late"), 20000)']);
child.on('exit', (code, signal) => console.log('exit', code, signal, child.killed));
setTimeout(() => child.kill(), 200);
const early = spawn('node', ['-e', 'require("fs").writeFileSync("never.txt", "ran")']);
early.on('exit', (code, signal) => console.log('early', code, signal, require('fs').existsSync('never.txt')));
early.kill('SIGKILL');
`);
    expect(ours).toBe("early null SIGKILL false\nexit null SIGTERM true\nexit=0\n");
    expect(ours).toBe(real);
  });

  it("fork gives the child an IPC channel: messages both ways as JSON, disconnect from the parent ends the child", async () => {
    const child = `
process.on('message', (m) => {
  process.send({ answer: m.n + 1, when: m.when, keys: Object.keys(m), argv: process.argv.slice(2), env: process.env.FROM, channel: 'NODE_CHANNEL_FD' in process.env || 'WEBCODE_IPC_CHANNEL' in process.env });
});
process.on('disconnect', () => require('fs').writeFileSync('child-saw-disconnect.txt', String(process.connected)));
process.send({ ready: true, connected: process.connected });
`;
    const { ours, real, files, realFile } = await both(`
const { fork } = require('child_process');
const child = fork('child.js', ['arg1'], { env: { ...process.env, FROM: 'parent' } });
console.log('connected', child.connected, typeof child.send);
child.on('message', (m) => {
  console.log('parent got', JSON.stringify(m));
  if (m.ready) child.send({ n: 20, when: new Date(0), gone: undefined });
  else child.disconnect();
});
child.on('disconnect', () => console.log('disconnect', child.connected));
child.on('exit', (code, signal) => console.log('exit', code, signal));
`, { "child.js": child });
    expect(ours).toBe('connected true function\nparent got {"ready":true,"connected":true}\nparent got {"answer":21,"when":"1970-01-01T00:00:00.000Z","keys":["n","when"],"argv":["arg1"],"env":"parent","channel":false}\ndisconnect false\nexit 0 null\nexit=0\n');
    expect(ours).toBe(real);
    expect(await files.readText("child-saw-disconnect.txt")).toBe("false");
    expect(realFile("child-saw-disconnect.txt")).toBe("false");
  });

  it("without shared memory to block on (a page that is not cross-origin isolated), the synchronous variants fail with one line", async () => {
    const { runtime } = await setup();
    const result = await runtime.exec(`node -e "try { require('child_process').execSync('ls') } catch (e) { console.log(e.code, e.message) }"`);
    expect(result.output).toBe("ERR_WEBCODE_NO_SHARED_MEMORY child_process.execSync cannot wait for a child here: the page is not cross-origin isolated, so the program has no shared memory to block on. Use spawn or exec, or the WebContainer runtime.\n");
  });

  it("the run's gate sees each command a child runs, and a refused one does not run", async () => {
    const { files, runtime } = await setup();
    const seen: string[][] = [];
    const gate: ExecGate = {
      async command(argv) {
        seen.push([...argv]);
        if (argv[0] === "rm") throw new Error("the user rejected it");
      },
      async request() {
        throw new Error("no requests here");
      },
    };
    await files.writeFile("keep.txt", "kept");
    const program = "require('child_process').exec('echo hi && rm keep.txt', (e, out, err) => console.log(out.trim(), e.code))";
    const result = await runtime.exec(`node -e "${program}"`, { source: "agent", gate });
    expect(result.output).toBe("hi 126\n");
    expect(seen.map((argv) => argv[0])).toEqual(["node", "echo", "rm"]);
    expect(await files.readText("keep.txt")).toBe("kept");
  });

  it("cross-spawn (a real package, from this project's node_modules) runs a node child with its env and inherited output", async () => {
    const { files, runtime } = await setup();
    const copy = async (from: string, to: string) => {
      for (const name of readdirSync(from)) {
        const path = join(from, name);
        if (statSync(path).isDirectory()) await copy(path, `${to}/${name}`);
        else await files.writeFile(`${to}/${name}`, readFileSync(path, "utf8"));
      }
    };
    for (const name of ["cross-spawn", "which", "isexe", "path-key", "shebang-command", "shebang-regex"]) {
      await copy(join("node_modules", name), `node_modules/${name}`);
    }
    await files.writeFile(
      "run.js",
      "const child = require('cross-spawn')('node', ['-e', 'console.log(process.env.FOO)'], { stdio: 'inherit', env: { ...process.env, FOO: '1' } });\nchild.on('exit', (code) => console.log('exit', code));",
    );
    const result = await runtime.exec("node run.js");
    expect(result).toEqual({ output: "1\nexit 0\n", exitCode: 0 });
  });
});
