// Differential check of the browser runtime's node against the machine's real Node: each program
// runs in both (files in a temporary folder for Node, in /workspace for ours) and stdout, stderr and
// the exit code are compared, so "behaves as Node's" is measured. Stack frame lines, the caret line,
// line numbers inside Node's own modules and the "Node.js vX" line are left out of the comparison
// (their columns and internals differ).
// Programs whose difference is known are listed in KNOWN_DIFFERENCES; the test fails when any other
// program differs, and prints the tally.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runNodeInProcess } from "../support/run-node";

interface Program {
  name: string;
  files: Record<string, string>;
  args: string[];
  stdin?: string;
}

export const PROGRAMS: Program[] = [
  { name: "console formatting", args: ["main.js"], files: { "main.js": "class Point { constructor() { this.x = 1; this.y = [2, { z: 3 }]; } }\nconsole.log('%s is %d (%i) %j %o', 'n', 4.5, 4.5, { a: [1] }, 'str');\nconsole.log([1, 'two', null, undefined, -0, 10n, Symbol('s')], new Point(), { deep: { deeper: { deepest: { gone: 1 } } } });\nconsole.log(new Map([['k', { v: 1 }]]), new Set([1, 'a']), [undefined, , 3], 'plain', 42, true);\nconsole.error('to stderr', { e: 1 });\nconsole.log(Buffer.from('hi'), new Uint8Array([1, 2]), function named() {}, () => {}, class K {});" } },
  { name: "exit codes", args: ["main.js"], files: { "main.js": "process.on('exit', (code) => console.log('exit', code));\nconsole.log('start');\nprocess.exitCode = 3;\nsetTimeout(() => console.log('timer'), 5);" } },
  { name: "process.exit", args: ["main.js", "a", "b"], files: { "main.js": "console.log(process.argv.slice(2));\nprocess.exit(2);\nconsole.log('never');" } },
  { name: "uncaught error", args: ["main.js"], files: { "main.js": "const value = 1;\nfunction fail() {\n  throw new Error('boom ' + value);\n}\nfail();" } },
  { name: "uncaught error with code", args: ["main.js"], files: { "main.js": "const error = new RangeError('too big');\nerror.code = 'E_BIG';\nthrow error;" } },
  { name: "uncaught error in a timer callback", args: ["timer.js"], files: { "timer.js": "const list = [1, 2];\nsetTimeout(() => {\n  list.forEach((n) => {\n    if (n === 2) throw new TypeError('bad item ' + n);\n  });\n}, 1);" } },
  { name: "uncaught error in an ES module", args: ["m.mjs"], files: { "m.mjs": "const answer = 42;\nexport default answer;\nthrow new SyntaxError('in module');" } },
  { name: "missing module", args: ["main.js"], files: { "main.js": "require('./not-here');" } },
  { name: "ESM importing CommonJS, top-level await", args: ["main.mjs"], files: { "main.mjs": "import cjs, { named } from './lib.cjs';\nimport { readFileSync } from 'node:fs';\nconst later = await Promise.resolve('awaited');\nconsole.log(typeof cjs, named, later, readFileSync('lib.cjs', 'utf8').length);", "lib.cjs": "module.exports = () => 1;\nmodule.exports.named = 'n';" } },
  { name: "fs round trip", args: ["main.js"], files: { "main.js": "const fs = require('fs');\nfs.mkdirSync('d/e', { recursive: true });\nfs.writeFileSync('d/e/f.txt', 'x');\nfs.appendFileSync('d/e/f.txt', 'y');\nconsole.log(fs.readFileSync('d/e/f.txt', 'utf8'), fs.readdirSync('d'), fs.statSync('d/e/f.txt').size, fs.existsSync('nope'));\ntry { fs.readdirSync('nope'); } catch (e) { console.log(e.code, e.syscall, e.errno); }\nfs.rmSync('d', { recursive: true });\nconsole.log(fs.existsSync('d'));" } },
  { name: "fs streams and a FileHandle's lines", args: ["main.js"], files: { "main.js": "const fs = require('fs');\nconst fsp = require('fs/promises');\nconst { pipeline } = require('stream/promises');\nfs.writeFileSync('data.txt', 'line one\\nline two\\r\\nline three\\nünïcödé\\nlast');\n(async () => {\n  const all = fs.createReadStream('data.txt', { encoding: 'utf8', highWaterMark: 8 });\n  const events = [];\n  all.on('open', (fd) => events.push(['open', typeof fd]));\n  all.on('ready', () => events.push('ready'));\n  let text = '';\n  for await (const chunk of all) text += chunk;\n  await new Promise((resolve) => (all.closed ? resolve() : all.once('close', resolve)));\n  console.log(JSON.stringify(text), all.bytesRead, events, all.destroyed);\n  const part = fs.createReadStream('data.txt', { start: 5, end: 11 });\n  const parts = [];\n  for await (const chunk of part) parts.push(chunk);\n  console.log(Buffer.concat(parts).toString(), part.bytesRead);\n  const out = fs.createWriteStream('out.txt');\n  out.write('alpha ');\n  out.write(Buffer.from('beta '));\n  out.end('gamma');\n  await new Promise((resolve) => out.on('finish', resolve));\n  console.log(fs.readFileSync('out.txt', 'utf8'), out.bytesWritten);\n  const more = fs.createWriteStream('out.txt', { flags: 'a' });\n  more.end(' delta');\n  await new Promise((resolve) => more.on('close', resolve));\n  console.log(fs.readFileSync('out.txt', 'utf8'));\n  const at = fs.createWriteStream('out.txt', { flags: 'r+', start: 6 });\n  at.end('BETA');\n  await new Promise((resolve) => at.on('close', resolve));\n  console.log(fs.readFileSync('out.txt', 'utf8'));\n  await pipeline(fs.createReadStream('data.txt'), fs.createWriteStream('copy.txt'));\n  console.log(fs.readFileSync('copy.txt', 'utf8') === fs.readFileSync('data.txt', 'utf8'));\n  const missing = fs.createReadStream('missing.txt');\n  await new Promise((resolve) => missing.on('error', (e) => { console.log(e.code, e.syscall); resolve(); }));\n  const fh = await fsp.open('data.txt');\n  const lines = [];\n  for await (const line of fh.readLines()) lines.push(line);\n  console.log(lines, fh.fd);\n  const fh2 = await fsp.open('data.txt');\n  const chunks = [];\n  for await (const chunk of fh2.createReadStream({ start: 0, end: 3 })) chunks.push(chunk.toString());\n  console.log(chunks, fh2.fd);\n  const fh3 = await fsp.open('handle-out.txt', 'w');\n  const ws = fh3.createWriteStream();\n  ws.end('through a handle');\n  await new Promise((resolve) => ws.on('close', resolve));\n  console.log(fs.readFileSync('handle-out.txt', 'utf8'), fh3.fd);\n  try { fs.createReadStream('data.txt', { start: 5, end: 2 }); } catch (e) { console.log(e.code); }\n})();" } },
  { name: "fs FileHandle and descriptors", args: ["main.js"], files: { "main.js": "const fsp = require('fs/promises');\nconst fs = require('fs');\n(async () => {\n  const fh = await fsp.open('notes.txt', 'w+', 0o644);\n  console.log(typeof fh.fd, fh.fd > 2);\n  console.log(await fh.write('hello '), await fh.write(Buffer.from('world!')));\n  const r = await fh.write(Buffer.from('xyz'), 1, 2, 20);\n  console.log(r.bytesWritten, r.buffer.toString());\n  const buf = Buffer.alloc(5);\n  const read = await fh.read(buf, 0, 5, 0);\n  console.log(read.bytesRead, read.buffer.toString());\n  const r2 = await fh.read({ buffer: Buffer.alloc(3), position: 6 });\n  console.log(r2.bytesRead, r2.buffer.toString());\n  console.log((await fh.stat()).size, (await fh.stat()).isFile());\n  await fh.truncate(5);\n  console.log(await fh.readFile('utf8'), JSON.stringify(await fh.readFile({ encoding: 'utf8' })));\n  await fh.sync(); await fh.datasync();\n  await fh.close();\n  console.log(fh.fd);\n  try { await fh.read(Buffer.alloc(1), 0, 1, 0); } catch (e) { console.log(e.code, e.message); }\n  try { await fh.stat(); } catch (e) { console.log(e.code, e.message); }\n  const ap = await fsp.open('notes.txt', 'a');\n  await ap.appendFile(' more');\n  await ap.writeFile(' again');\n  await ap.close();\n  console.log(fs.readFileSync('notes.txt', 'utf8'));\n  const w = await fsp.open('other.txt', 'w');\n  await w.writeFile('replaced text');\n  await w.writeFile('new');\n  await w.close();\n  console.log(fs.readFileSync('other.txt', 'utf8'));\n  const rd = await fsp.open('other.txt');\n  console.log(await rd.readFile('utf8'), JSON.stringify(await rd.readFile('utf8')));\n  await rd.close();\n  try { await fsp.open('missing.txt'); } catch (e) { console.log(e.code, e.syscall, e.message); }\n  const d = await fsp.open('dir');\n  try { await d.readFile(); } catch (e) { console.log(e.code, e.syscall, e.message); }\n  await d.close();\n  try { await fsp.open('dir', 'w'); } catch (e) { console.log(e.code, e.syscall, e.message); }\n  fs.open('other.txt', 'r', (err, fd) => {\n    fs.fstat(fd, (err2, st) => {\n      console.log('callback', err, err2, st.size);\n      fs.read(fd, Buffer.alloc(3), 0, 3, 0, (err3, n, b) => {\n        console.log(n, b.toString());\n        fs.close(fd, (err4) => console.log('closed', err4));\n      });\n    });\n  });\n})();", "dir/.keep": "" } },
  { name: "path", args: ["main.js"], files: { "main.js": "const path = require('path');\nconsole.log(path.join('a', '../b', 'c.txt'), path.extname('x.tar.gz'), path.basename('/a/b.js', '.js'), path.relative('/a/b', '/a/c/d'), path.parse('/x/y.z'), path.normalize('/a//b/../c/.'), path.isAbsolute('a'), path.sep, path.dirname('/a/b/c'));" } },
  { name: "buffer", args: ["main.js"], files: { "main.js": "const b = Buffer.from('héllo wörld');\nconsole.log(b.length, b.toString('hex'), b.toString('base64'), b.slice(0, 3).toString(), Buffer.compare(Buffer.from('a'), Buffer.from('b')), b.readUInt16BE(0), Buffer.alloc(3, 1), b.indexOf('w'));" } },
  { name: "crypto", args: ["main.js"], files: { "main.js": "const c = require('crypto');\nconsole.log(c.createHash('sha256').update('a').update('b').digest('hex'), c.createHash('md5').update(Buffer.from([1, 2, 3])).digest('base64'), c.createHmac('sha1', 'k').update('v').digest('hex'), c.randomBytes(4).length);" } },
  { name: "events", args: ["main.js"], files: { "main.js": "const EventEmitter = require('events');\nconst e = new EventEmitter();\ne.once('x', (v) => console.log('once', v));\ne.on('x', (v) => console.log('on', v));\ne.emit('x', 1); e.emit('x', 2);\nconsole.log(e.listenerCount('x'), e.eventNames());\ntry { e.emit('error', new Error('unhandled event')); } catch (err) { console.log(err.message); }" } },
  { name: "util", args: ["main.js"], files: { "main.js": "const util = require('util');\nconsole.log(util.inspect({ a: { b: { c: { d: 1 } } } }, { depth: 0 }), util.format('%s:%s', 'a'), util.isDeepStrictEqual([1], [1]), util.types.isDate(new Date()), util.inspect('str'), util.inspect(new Error('e').message));\nutil.promisify((cb) => cb(null, 'promisified'))().then(console.log);" } },
  { name: "stdin", args: ["main.js"], stdin: "one\ntwo\nthree\n", files: { "main.js": "let data = '';\nprocess.stdin.setEncoding('utf8');\nprocess.stdin.on('data', (chunk) => (data += chunk));\nprocess.stdin.on('end', () => console.log(data.split('\\n').filter(Boolean).map((l) => l.toUpperCase())));" } },
  { name: "node --test passing", args: ["--test", "--test-reporter=spec"], files: { "a.test.js": "const test = require('node:test');\nconst assert = require('assert');\ntest('works', () => assert.ok(true));" } },
  { name: "node --test failing", args: ["--test", "--test-reporter", "spec"], files: { "math.test.js": "const { test, describe } = require('node:test');\nconst assert = require('assert');\ndescribe('math', () => {\n  test('adds', () => assert.strictEqual(1 + 1, 2));\n  test('fails', () => assert.strictEqual(1 + 1, 3));\n});\ntest('top', () => {});" } },
  { name: "node --test failing, TAP", args: ["--test", "--test-reporter=tap"], files: { "math.test.js": "const { test, describe } = require('node:test');\nconst assert = require('assert');\ndescribe('math', () => {\n  test('adds', () => assert.strictEqual(1 + 1, 2));\n  test('fails', () => assert.strictEqual(1 + 1, 3));\n});\ntest('top', () => {});" } },
  { name: "node --test passing, TAP", args: ["--test", "--test-reporter", "tap"], files: { "a.test.js": "const test = require('node:test');\nconst assert = require('assert');\ntest('works', () => assert.ok(true));\ntest('nested', async (t) => {\n  await t.test('child', () => {});\n});" } },
  { name: "node --test skip, todo, suites", args: ["--test", "--test-reporter=spec"], files: { "s.test.js": "const { test, describe } = require('node:test');\ntest('skipped', { skip: 'later' }, () => {});\ntest('todo', { todo: true }, () => {});\ntest('todo failing', { todo: 'not yet' }, () => { throw new Error('x'); });\ndescribe('suite', () => {\n  test('inner', (t) => {\n    t.diagnostic('a note');\n  });\n  test.skip('plain skip');\n});\ntest('ctx skip', (t) => { t.skip(); });\ntest('ctx skip msg', (t) => { t.skip('why'); });" } },
  { name: "node --test skip, todo, suites, TAP", args: ["--test", "--test-reporter=tap"], files: { "s.test.js": "const { test, describe } = require('node:test');\ntest('skipped', { skip: 'later' }, () => {});\ntest('todo', { todo: true }, () => {});\ntest('todo failing', { todo: 'not yet' }, () => { throw new Error('x'); });\ndescribe('suite', () => {\n  test('inner', (t) => {\n    t.diagnostic('a note');\n  });\n  test.skip('plain skip');\n});\ntest('ctx skip', (t) => { t.skip(); });\ntest('ctx skip msg', (t) => { t.skip('why'); });" } },
  { name: "querystring and url", args: ["main.js"], files: { "main.js": "const qs = require('querystring');\nconst url = require('url');\nconsole.log(qs.parse('a=1&b=2&b=3'), qs.stringify({ x: [1, 2], y: 'z w' }), new URL('https://e.com/p?q=1#h').searchParams.get('q'), url.fileURLToPath('file:///tmp/a%20b'));" } },
  { name: "stream pipeline with Transform", args: ["stream.js"], files: { "stream.js": "const { pipeline, Transform, Readable, Writable } = require('stream');\nconst upper = new Transform({\n  transform(chunk, encoding, callback) {\n    callback(null, chunk.toString().toUpperCase());\n  },\n});\nconst seen = [];\npipeline(\n  Readable.from(['a', 'b', 'c']),\n  upper,\n  new Writable({\n    write(chunk, encoding, callback) {\n      seen.push(chunk.toString());\n      callback();\n    },\n  }),\n  (error) => console.log('done', error, seen),\n);\nconst { pipeline: pipelineAsync } = require('stream/promises');\npipelineAsync(Readable.from(['x']), new Transform({ transform(c, e, cb) { cb(new Error('bad chunk')); } }), new Writable({ write(c, e, cb) { cb(); } })).catch((e) => console.log('failed', e.message));" } },
  { name: "readline over piped stdin", args: ["readline.js"], stdin: "alpha\nbeta\n\ngamma", files: { "readline.js": "const readline = require('readline');\nconst rl = readline.createInterface({ input: process.stdin });\nlet n = 0;\nrl.on('line', (line) => console.log(`${++n}: ${line}`));\nrl.on('close', () => console.log('lines', n));" } },
  { name: "timers/promises", args: ["timers.mjs"], files: { "timers.mjs": "import { setTimeout as sleep, setImmediate as immediate, setInterval as every } from 'node:timers/promises';\nconsole.log(await sleep(5, 'slept'));\nconsole.log(await immediate('immediate'));\nlet n = 0;\nfor await (const value of every(2, 'tick')) {\n  console.log(value, ++n);\n  if (n === 3) break;\n}\nconst controller = new AbortController();\nconst pending = sleep(1000, null, { signal: controller.signal });\ncontroller.abort();\ntry { await pending; } catch (e) { console.log(e.name, e.code, e.message); }" } },
  { name: "assert/strict failure", args: ["assert.js"], files: { "assert.js": "const assert = require('assert/strict');\ntry { assert.equal(1, '1'); } catch (e) { console.log(e.message); }\ntry { assert.deepEqual({ a: [1, 2] }, { a: [1, 3] }); } catch (e) { console.log(e.message); }\nassert.throws(() => { throw new TypeError('x'); }, TypeError);\nassert.ok(true);\nassert.strictEqual('left', 'right', 'custom message');" } },
  { name: "string_decoder", args: ["decoder.js"], files: { "decoder.js": "const { StringDecoder } = require('string_decoder');\nconst euro = Buffer.from('\u20ac and \ud83d\ude00');\nconst utf8 = new StringDecoder('utf8');\nconst parts = [];\nfor (let i = 0; i < euro.length; i += 2) parts.push(utf8.write(euro.subarray(i, i + 2)));\nconsole.log(parts, JSON.stringify(utf8.end()));\nconst partial = new StringDecoder('utf8');\nconsole.log(JSON.stringify(partial.write(Buffer.from([0xe2, 0x82]))), JSON.stringify(partial.end()));\nconst b64 = new StringDecoder('base64');\nconsole.log(b64.write(Buffer.from('ab')), b64.write(Buffer.from('c')), b64.end(Buffer.from('d')));\nconst hex = new StringDecoder('hex');\nconsole.log(hex.write(Buffer.from([1, 255])), hex.end());\nconst utf16 = new StringDecoder('utf16le');\nconsole.log(utf16.write(Buffer.from([0x61, 0x00, 0x62])), utf16.end(Buffer.from([0x00])));" } },
  { name: "os basics", args: ["os.js"], files: { "os.js": "const os = require('os');\nconsole.log(os.EOL === '\\n', os.platform(), os.type(), os.endianness(), os.devNull, os.homedir() === process.env.HOME);\nconsole.log(os.constants.signals.SIGINT, os.constants.signals.SIGTERM, os.constants.errno.ENOENT, typeof os.cpus().length, os.arch() === process.arch, typeof os.hostname(), typeof os.totalmem(), typeof os.uptime());\nconsole.log(Object.keys(os.userInfo()).sort(), Array.isArray(os.loadavg()), typeof os.networkInterfaces(), os.availableParallelism() >= 1);" } },
  { name: "module.createRequire", args: ["createrequire.mjs"], files: { "createrequire.mjs": "import { createRequire, builtinModules, isBuiltin } from 'node:module';\nconst require = createRequire(import.meta.url);\nconst data = require('./data.json');\nconst lib = require('./lib/helper.cjs');\nconsole.log(data, lib.twice(21), require.resolve('./lib/helper.cjs').endsWith('/lib/helper.cjs'));\nconsole.log(builtinModules.includes('fs'), isBuiltin('node:path'), isBuiltin('nope'), typeof require.cache);\ntry { require('./absent'); } catch (e) { console.log(e.code); }\nconst fromLib = createRequire(new URL('./lib/', import.meta.url));\nconsole.log(fromLib('./helper.cjs') === lib);", "data.json": "{ \"name\": \"data\", \"list\": [1, 2] }", "lib/helper.cjs": "exports.twice = (n) => n * 2;" } },
  { name: "util.inspect of classes, getters, circular", args: ["inspect.js"], files: { "inspect.js": "const util = require('util');\nclass Temperature {\n  #secret = 1;\n  constructor(c) { this.celsius = c; }\n  get fahrenheit() { return this.celsius * 9 / 5 + 32; }\n}\nclass Sub extends Temperature { static kind = 'sub'; }\nconst circular = { name: 'root', list: [1, 2] };\ncircular.self = circular;\ncircular.list.push(circular);\nconst withGetter = { get computed() { return 42; }, set both(v) {}, get both() { return 1; }, set only(v) {} };\nconsole.log(new Temperature(20), new Sub(5), circular);\nconsole.log(withGetter, util.inspect(withGetter, { getters: true }));\nconsole.log(util.inspect(new Map([[circular, 1]]), { depth: 1 }), Object.create(null), new (class {})(), [new Temperature(1)]);\nconsole.log(util.inspect({ a: 1, b: 'x'.repeat(80), c: [1, 2, 3] }), util.inspect('quote\\'s'), util.inspect([,'a',,]), util.inspect(Object.assign(() => {}, { prop: 1 })));\nconsole.log(new Error('in object').message, [new Date(0)], util.inspect(new Proxy({ a: 1 }, {})));" } },
  { name: "util.inspect of symbol keys and proxies", args: ["main.js"], files: { "main.js": "const util = require('util');\nconsole.log({ [Symbol('s')]: 1, [Symbol.iterator]: 2 }, util.inspect(new Proxy({ a: 1 }, {}), { showProxy: true }));" } },
  { name: "nextTick before promises", args: ["main.js"], files: { "main.js": "Promise.resolve().then(() => console.log('promise'));\nprocess.nextTick(() => console.log('tick'));\nconsole.log('sync');" } },
  { name: "nextTick in timers and promises", args: ["main.js"], files: { "main.js": "setTimeout(() => {\n  Promise.resolve().then(() => console.log('timer promise'));\n  process.nextTick(() => console.log('timer tick'));\n}, 1);\nPromise.resolve().then(() => {\n  process.nextTick(() => console.log('tick from promise'));\n  Promise.resolve().then(() => console.log('second promise'));\n});\nprocess.nextTick((a, b) => console.log('tick args', a, b), 1, 2);" } },
  { name: "nextTick, microtasks and await", args: ["main.js"], files: { "main.js": "process.nextTick(() => {\n  console.log('tick 1');\n  process.nextTick(() => console.log('tick nested'));\n  Promise.resolve().then(() => console.log('promise from tick'));\n});\nprocess.nextTick(() => console.log('tick 2'));\nqueueMicrotask(() => {\n  console.log('microtask');\n  process.nextTick(() => console.log('tick from microtask'));\n  queueMicrotask(() => console.log('microtask nested'));\n});\n(async () => {\n  await null;\n  console.log('await 1');\n  process.nextTick(() => console.log('tick after await'));\n  await null;\n  console.log('await 2');\n})();\nsetTimeout(() => {\n  console.log('timeout');\n  process.nextTick(() => console.log('tick in timeout'));\n  setImmediate(() => console.log('immediate from timeout'));\n  setTimeout(() => console.log('timeout from timeout'), 0);\n}, 0);" } },
  { name: "nextTick in an ES module", args: ["main.mjs"], files: { "main.mjs": "Promise.resolve().then(() => console.log('promise'));\nprocess.nextTick(() => console.log('tick'));\nconsole.log('sync');" } },
  { name: "-p with nextTick", args: ["-p", "Promise.resolve().then(() => console.log('promise')); process.nextTick(() => console.log('tick')); 1"], files: {} },
  { name: "-p expression", args: ["-p", "[1, 2].map((n) => n * 2)"], files: {} },
  { name: "bad option", args: ["--no-such-flag"], files: {} },
];

/** Differences we know of and have not closed yet (each says why). */
export const KNOWN_DIFFERENCES: Record<string, string> = {
  // Only the engine knows a throw statement's position (the message location V8 gives Node's header and
  // a worker's ErrorEvent lineno/colno), and only for an exception no JavaScript catch saw; the runtime
  // catches the program's throws (exit handlers, 'uncaughtException' listeners, an async main and ES
  // modules turn them into rejections), and these in-process runs have no ErrorEvent. Rewriting
  // `throw` in the source would move the columns of every frame on that line.
  "assert/strict failure":
    "assert is the npm port (assert 2.1, from an older Node): a failed deepEqual shows both values on one line each, not Node 20's line-by-line diff, a custom message comes without the diff, and the uncaught header shows the program's line where Node's shows the throw inside node:assert",
  "util.inspect of symbol keys and proxies":
    "util.inspect is node-inspect-extracted 3.3 (extracted from an older Node): symbol keys print without Node 20's brackets, and a page cannot tell a Proxy from its target (showProxy needs V8's internals)",
  "uncaught error with code": "the header shows the line where the error was created (its first program stack frame); Node shows the throw statement, a position only the engine knows",
};

/** Drops the frames of TAP's `stack: |-` blocks (the lines indented under it), as the "at" lines of other stacks. */
function withoutTapStacks(): (line: string) => boolean {
  let stackIndent = -1;
  return (line) => {
    const indent = /^\s*/.exec(line)![0].length;
    if (stackIndent >= 0 && indent > stackIndent && line.trim() !== "") return false;
    stackIndent = /^\s*stack: \|-$/.test(line) ? indent : -1;
    return true;
  };
}

export function normalize(text: string, root: string): string {
  return text
    .split(root)
    .join("/workspace")
    .replace(/^(?:\/usr\/local\/bin\/node|\S*\/node): bad option/m, "node: bad option")
    .replace(/node:(?:internal\/[\w/]+|assert):\d+/g, "node:internal")
    .split("\n")
    .filter((line) => !/^\s+at /.test(line) && !/^\s*\^+\s*$/.test(line) && !/^Node\.js v\d+/.test(line))
    .filter(withoutTapStacks())
    .join("\n")
    .replace(/\(node:\d+\)/g, "(node:PID)")
    .replace(/duration_ms:? [\d.]+/g, "duration_ms N")
    .replace(/\([\d.]+ms\)/g, "(Nms)");
}

describe("differential check against the machine's Node", () => {
  const root = mkdtempSync(path.join(tmpdir(), "webcode-diff-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const tally = { same: 0, differ: [] as string[] };
  afterAll(() => console.log(`node differential: ${tally.same} of ${PROGRAMS.length} programs give the same stdout, stderr and exit code as Node ${process.version}; differ: ${tally.differ.join(", ") || "none"}`));

  it.each(PROGRAMS)("$name", async (program) => {
    const dir = mkdtempSync(path.join(root, "p-"));
    for (const [file, text] of Object.entries(program.files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    const real = spawnSync(process.execPath, program.args, { cwd: dir, input: program.stdin ?? "", encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: dir }, timeout: 20_000 });
    const ours = await runNodeInProcess(program.args, program.files, { stdin: program.stdin ?? null, env: { HOME: "/workspace" } });
    const expected = { stdout: normalize(real.stdout, dir), stderr: normalize(real.stderr, dir), exitCode: real.status };
    const actual = { stdout: normalize(ours.stdout, "/workspace"), stderr: normalize(ours.stderr, "/workspace"), exitCode: ours.exitCode };
    const same = JSON.stringify(expected) === JSON.stringify(actual);
    if (same) tally.same++;
    else tally.differ.push(program.name);
    if (program.name in KNOWN_DIFFERENCES) return;
    expect(actual).toEqual(expected);
  });
});
