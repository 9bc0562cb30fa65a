// The browser runtime's node: built-in modules behave as Node's (fs in its three forms, path, os,
// util, events, assert, buffer, url, querystring, string_decoder, timers, crypto, stream, readline,
// module.createRequire), modules that need an operating system fail with one line naming
// WebContainer, and file writes come back as changes for the workspace.
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { runNodeInProcess } from "../support/run-node";

describe("node built-ins", () => {
  it("fs: sync, callback and promise forms read and write the same files, with Node's errors", async () => {
    const run = await runNodeInProcess(["fs.js"], {
      "fs.js": [
        "const fs = require('fs'); const fsp = require('fs/promises'); const path = require('path');",
        "fs.mkdirSync('out/deep', { recursive: true });",
        "fs.writeFileSync('out/deep/a.txt', 'one');",
        "fs.appendFileSync('out/deep/a.txt', '+two');",
        "console.log(fs.readFileSync('out/deep/a.txt', 'utf8'), fs.existsSync('out/deep/a.txt'), fs.statSync('out').isDirectory(), fs.statSync('out/deep/a.txt').size);",
        "console.log(fs.readdirSync('out', { withFileTypes: true }).map((d) => d.name + ':' + d.isDirectory()).join(','));",
        "try { fs.readFileSync('missing.txt'); } catch (e) { console.log(e.code, e.message); }",
        "fs.readFile('out/deep/a.txt', 'utf8', (err, text) => {",
        "  console.log('callback', err, text);",
        "  fsp.rename('out/deep/a.txt', 'out/b.txt').then(async () => {",
        "    await fsp.copyFile('out/b.txt', 'out/c.txt');",
        "    await fsp.rm('out/deep', { recursive: true });",
        "    console.log('promises', (await fsp.readdir('out')).join(','), path.resolve('x'));",
        "  });",
        "});",
      ].join("\n"),
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      [
        "one+two true true 7",
        "deep:true",
        "ENOENT ENOENT: no such file or directory, open 'missing.txt'",
        "callback null one+two",
        "promises b.txt,c.txt /workspace/x",
        "",
      ].join("\n"),
    );
    expect(run.ops.map((op) => op.kind)).toEqual(["mkdir", "write", "write", "rename", "write", "remove"]);
    expect(run.ops[2]).toEqual({ kind: "write", path: "/workspace/out/deep/a.txt", data: "one+two" });
  });

  it("fs descriptors: open, write at a position, read, fstat, close, append, and Node's errors (as real Node prints them)", async () => {
    const run = await runNodeInProcess(["fd.js"], {
      "fd.js": [
        "const fs = require('fs');",
        "const fd = fs.openSync('a.txt', 'w');",
        "fs.writeSync(fd, 'hello ');",
        "fs.writeSync(fd, Buffer.from('big world'), 4, 5);",
        "fs.writeSync(fd, 'J', 0);",
        "console.log(fs.fstatSync(fd).size, fs.readFileSync('a.txt', 'utf8'));",
        "fs.closeSync(fd);",
        "const r = fs.openSync('a.txt', 'r');",
        "const buf = Buffer.alloc(4);",
        "console.log(fs.readSync(r, buf, 0, 4, null), buf.toString(), fs.readSync(r, buf, 0, 4, null), buf.toString());",
        "fs.closeSync(r);",
        "try { fs.writeSync(r, 'x'); } catch (e) { console.log(e.code); }",
        "try { fs.openSync('missing.txt', 'r'); } catch (e) { console.log(e.code); }",
        "try { fs.openSync('a.txt', 'wx'); } catch (e) { console.log(e.code); }",
        "const a = fs.openSync('a.txt', 'a');",
        "fs.writeSync(a, '!', 0);",
        "fs.closeSync(a);",
        "fs.open('a.txt', 'r', (err, fd2) => {",
        "  const b = Buffer.alloc(20);",
        "  fs.read(fd2, b, 0, 20, 0, (err2, n, same) => {",
        "    console.log(err, err2, n, same === b, b.subarray(0, n).toString());",
        "    fs.close(fd2, (err3) => console.log('closed', err3));",
        "  });",
        "});",
      ].join("\n"),
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(["11 Jello world", "4 Jell 4 o wo", "EBADF", "ENOENT", "EEXIST", "null null 12 true Jello world!", "closed null", ""].join("\n"));
    expect(run.ops.at(-1)).toEqual({ kind: "write", path: "/workspace/a.txt", data: expect.anything() });
  });

  it("fs.promises.open gives a FileHandle whose writes land on the file at once, with Node's errors once closed", async () => {
    const run = await runNodeInProcess(["handle.js"], {
      "handle.js": [
        "const fs = require('fs'); const fsp = require('fs/promises');",
        "(async () => {",
        "  const handle = await fsp.open('log.txt', 'w');",
        "  console.log(handle.fd > 2, (await handle.write('a')).bytesWritten, (await handle.write(Buffer.from('bc'))).bytesWritten);",
        "  console.log(fs.readFileSync('log.txt', 'utf8'));",
        "  await handle.appendFile('d');",
        "  await handle.writeFile(Buffer.from('e'));",
        "  await handle.truncate(4);",
        "  console.log((await handle.stat()).size);",
        "  await handle.sync();",
        "  await handle.close();",
        "  await handle.close();",
        "  console.log(handle.fd);",
        "  for (const use of [() => handle.write('x'), () => handle.stat(), () => handle.readFile()]) await use().catch((e) => console.log(e.code, e.syscall, e.message));",
        "  const reader = await fsp.open('log.txt');",
        "  const { bytesRead, buffer } = await reader.read({ buffer: Buffer.alloc(2), position: 1 });",
        "  console.log(bytesRead, buffer.toString(), await reader.readFile('utf8'));",
        "  await reader.write('no').catch((e) => console.log(e.code, e.syscall));",
        "  await reader.close();",
        "  await fsp.open('nope.txt').catch((e) => console.log(e.code, e.path, e.message));",
        "  const dir = await fsp.open('sub');",
        "  await dir.readFile().catch((e) => console.log(e.code, e.message));",
        "  await dir.close();",
        "  await fsp.open('sub', 'w').catch((e) => console.log(e.code, e.message));",
        "})();",
      ].join("\n"),
      "sub/.keep": "",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      [
        "true 1 2",
        "abc",
        "4",
        "-1",
        "EBADF write file closed",
        "EBADF fstat file closed",
        "EBADF readFile file closed",
        "2 bc abcd",
        "EBADF write",
        "ENOENT nope.txt ENOENT: no such file or directory, open 'nope.txt'",
        "EISDIR EISDIR: illegal operation on a directory, read",
        "EISDIR EISDIR: illegal operation on a directory, open 'sub'",
        "",
      ].join("\n"),
    );
    // Every write went to the workspace as it happened, the truncation last.
    const writes = run.ops.filter((op) => op.kind === "write" && op.path === "/workspace/log.txt");
    expect(writes.length).toBeGreaterThanOrEqual(4);
    const last = writes.at(-1) as { data: string | Uint8Array };
    expect(typeof last.data === "string" ? last.data : new TextDecoder().decode(last.data)).toBe("abcd");
  });

  it("crypto hashes and HMACs match Node's; random values and UUIDs have Node's shape", async () => {
    const run = await runNodeInProcess([
      "-e",
      "const c = require('crypto'); for (const a of ['md5', 'sha1', 'sha256', 'sha512']) console.log(c.createHash(a).update('webcode').digest('hex')); console.log(c.createHmac('sha256', 'key').update('data').digest('base64')); console.log(c.randomBytes(8).length, /^[0-9a-f-]{36}$/.test(c.randomUUID())); console.log(c.hash('sha256', 'webcode'), c.hash('sha1', Buffer.from('webcode'), 'base64url'), Buffer.isBuffer(c.hash('md5', 'x', 'buffer')));",
    ]);
    const expected = ["md5", "sha1", "sha256", "sha512"].map((a) => createHash(a).update("webcode").digest("hex"));
    const oneShot = `${createHash("sha256").update("webcode").digest("hex")} ${createHash("sha1").update("webcode").digest("base64url")} true`;
    expect(run.stdout).toBe(`${[...expected, createHmac("sha256", "key").update("data").digest("base64"), "8 true", oneShot].join("\n")}\n`);
  });

  it("util, events, assert, buffer, url, querystring, string_decoder and os answer as Node's", async () => {
    const run = await runNodeInProcess([
      "-e",
      [
        "const util = require('util'); const { EventEmitter, once } = require('events'); const assert = require('assert/strict');",
        "console.log(util.format('%s=%d %j', 'n', 42, { a: 1 }), util.inspect({ deep: { map: new Map([['k', [1, 2]]]) } }), util.types.isPromise(Promise.resolve()));",
        "const e = new EventEmitter(); e.on('x', (v) => console.log('event', v)); e.emit('x', 7);",
        "try { assert.deepEqual({ a: 1 }, { a: 2 }); } catch (err) { console.log(err.name, err.code); }",
        "console.log(Buffer.from('hé').toString('base64'), Buffer.concat([Buffer.from('a'), Buffer.from('b')]).toString());",
        "const url = require('url'); console.log(url.fileURLToPath('file:///workspace/a%20b.js'), url.pathToFileURL('/workspace/x.js').href);",
        "console.log(require('querystring').stringify({ a: 1, b: 'x y' }), require('os').EOL === '\\n', require('os').platform());",
        "const { StringDecoder } = require('string_decoder'); const d = new StringDecoder('utf8'); console.log(d.write(Buffer.from([0xc3])) + d.write(Buffer.from([0xa9])));",
        "util.promisify(setTimeout)(5).then(() => console.log('promisified'));",
        "require('timers/promises').setTimeout(10, 'late').then(console.log);",
      ].join("\n"),
    ]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      [
        `n=42 {"a":1} { deep: { map: Map(1) { 'k' => [Array] } } } true`,
        "event 7",
        "AssertionError ERR_ASSERTION",
        "aMOp ab",
        "/workspace/a b.js file:///workspace/x.js",
        "a=1&b=x%20y true linux",
        "é",
        "promisified",
        "late",
        "",
      ].join("\n"),
    );
  });

  it("stream pipeline and readline over piped stdin", async () => {
    const run = await runNodeInProcess(
      [
        "-e",
        [
          "const { Transform, pipeline, Writable } = require('stream'); const readline = require('readline');",
          "const rl = readline.createInterface({ input: process.stdin });",
          "const lines = []; rl.on('line', (line) => lines.push(line)); rl.on('close', () => {",
          "  const upper = new Transform({ transform(chunk, _enc, cb) { cb(null, String(chunk).toUpperCase()); } });",
          "  let out = ''; const sink = new Writable({ write(chunk, _enc, cb) { out += chunk; cb(); } });",
          "  pipeline(require('stream').Readable.from([lines.join('|')]), upper, sink, (err) => console.log(err ?? out));",
          "});",
        ].join("\n"),
      ],
      {},
      { stdin: "first\nsecond\n" },
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("FIRST|SECOND\n");
  });

  it("module.createRequire works from an ES module; OS modules load and what needs an OS fails when called, in one line naming WebContainer", async () => {
    const run = await runNodeInProcess(["main.mjs"], {
      "main.mjs": "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nconsole.log(require('./lib.cjs'));\nconst cp = require('child_process');\nconsole.log(typeof cp.spawn);\ncp.execSync('ls');",
      "lib.cjs": "module.exports = 'required';",
    });
    expect(run.stdout).toBe("required\nfunction\n");
    expect(run.exitCode).toBe(1);
    // In-process there is no shared memory to block on (the page's sandbox has it: node-sync-children.test.ts).
    expect(run.stderr).toMatch(/Error: child_process\.execSync cannot wait for a child here: the page is not cross-origin isolated, .* or the WebContainer runtime\./);
    for (const [name, call] of [["net", "m.createServer()"], ["dgram", "m.createSocket('udp4')"]]) {
      const other = await runNodeInProcess(["-e", `const m = require('${name}'); console.log('loaded'); ${call}`]);
      expect(other.stdout).toBe("loaded\n");
      expect(other.stderr).toMatch(/in the browser runtime.*: it needs Node.js, which the WebContainer runtime runs/);
      expect(other.exitCode).toBe(1);
    }
  });
});

describe("symbolic links", () => {
  it("are refused as not supported (ENOTSUP) the same way by fs.symlinkSync, fs.symlink and fs.promises.symlink", async () => {
    const run = await runNodeInProcess(["link.js"], {
      "a.txt": "a",
      "link.js":
        "const fs = require('fs');\ntry { fs.symlinkSync('a.txt', 'l1'); } catch (e) { console.log(e.code, e.errno, e.syscall, e.message); }\nfs.symlink('a.txt', 'l2', (e) => {\n  console.log(e.code, e.syscall);\n  fs.promises.symlink('a.txt', 'l3').catch((e2) => console.log(e2.code, e2.syscall, fs.existsSync('l1') || fs.existsSync('l2') || fs.existsSync('l3')));\n});\n",
    });
    expect(run.stdout).toBe(
      "ENOTSUP -95 symlink ENOTSUP: operation not supported, symlink 'a.txt' -> 'l1'\nENOTSUP symlink\nENOTSUP symlink false\n",
    );
    expect(run.exitCode).toBe(0);
  });
});

describe("errors of the Node ports' own classes", () => {
  it("print as Node's internal errors: Error [CODE]: message, with the code", async () => {
    const { formatUncaught } = await import("../../src/runtime/node/error-print");
    // The port's Readable throws its NodeError from _read, as Node's does.
    const { Readable } = (await import("readable-stream")) as unknown as { Readable: new () => { _read(size: number): void } };
    let error: unknown;
    try {
      new Readable()._read(1);
    } catch (caught) {
      error = caught;
    }
    const text = formatUncaught(error, { source: () => undefined, firstLineOffset: () => 0 });
    expect(text).toMatch(/^Error \[ERR_METHOD_NOT_IMPLEMENTED\]: The _read\(\) method is not implemented( \{)?$/m);
    expect(text).toMatch(/^ {2}code: 'ERR_METHOD_NOT_IMPLEMENTED'$/m);
    expect(text).not.toMatch(/NodeError/);
  });
});
