// node in the browser runtime, in a real browser: a TypeScript file and node:test files written
// from the terminal, every built-in loading (zlib with Brotli, vm, AsyncLocalStorage and import() through new Function at work), exit codes as Node's, a program that cannot open the app's database, reach
// the page or the network, Ctrl-C ending an endless loop at once, and worker_threads' MessageChannel.
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";

const browser = useBrowser();

async function openBrowserRuntime() {
  const { page } = await browser.open("?runtime=browser");
  await waitForWorkbench(page);
  await waitForTerminal(page);
  return page;
}

describe("node in the browser runtime", () => {
  it("runs a TypeScript file written from the terminal, with Node's exit codes", async () => {
    const page = await openBrowserRuntime();
    await runInTerminal(page, `echo 'const answer: number = 41; console.log("answer", answer + 1); process.exitCode = 3;' > answer.ts`);
    await runInTerminal(page, `node answer.ts; echo "exit=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^answer 42$/m);
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^exit=3$/m);
    await runInTerminal(page, `node -p "require('path').join('a', 'b') + ' ' + process.version"; node --version`);
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^a\/b v22\.\d+\.\d+$/m);
    // A tick queued from a promise callback runs once the microtask queue has drained, as in Node (the worker's own task).
    await runInTerminal(page, `node -e "Promise.resolve().then(() => { process.nextTick(() => console.log('order tick')); Promise.resolve().then(() => console.log('order promise')); })"`);
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^order promise\norder tick$/m);
    // Uncaught errors as Node prints them, with the .ts file's own line; a rejection nobody handles.
    await runInTerminal(page, "clear");
    await runInTerminal(page, `printf 'type N = number;\\nconst n: N = 1;\\nthrow new TypeError("bad " + n);\\n' > broken.ts; node broken.ts; echo "thrown=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 20_000 }).toMatch(/^thrown=1$/m);
    const thrown = await terminalText(page);
    expect(thrown).toMatch(/^\/workspace\/broken\.ts:3\nthrow new TypeError\("bad " \+ n\);$/m);
    expect(thrown).toMatch(/^TypeError: bad 1\n {4}at .*\/workspace\/broken\.ts:3:\d+/m);
    await runInTerminal(page, `node -e "Promise.reject(new Error('nobody caught me'))"; echo "rejected=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 20_000 }).toMatch(/^rejected=1$/m);
    expect(await terminalText(page)).toMatch(/^Error: nobody caught me$/m);
  });

  it("loads every Node 20 built-in; zlib, vm and AsyncLocalStorage work, and import() through new Function, in the sandboxed worker", async () => {
    const page = await openBrowserRuntime();
    await runInTerminal(page, `node -e "const z = require('zlib'); const m = require('module'); const bad = m.builtinModules.filter((n) => { try { require(n); return false; } catch { return true; } }); console.log('builtins', m.builtinModules.length, 'failed', bad.length, z.gunzipSync(z.gzipSync('round trip')).toString(), require('vm').runInNewContext('a + 1', { a: 1 }))"`);
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^builtins 68 failed 0 round trip 2$/m);
    // Brotli's wasm is compiled on the first Brotli call, in the sandboxed worker (its CSP, a synchronous compile): Node's bytes decode, ours compress.
    await runInTerminal(page, `node -e "const z = require('zlib'); const t = 'brotli in the sandbox '.repeat(100); const p = z.brotliCompressSync(t); console.log('brotli', p.length < t.length / 10, z.brotliDecompressSync(p).toString() === t, z.brotliDecompressSync(Buffer.from('G3cA+I2Ubt5EVYaWbCBvEVscgMUB', 'base64')).toString().split(' ').length)"`);
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^brotli true true 21$/m);
    await runInTerminal(page, `node -e "const { AsyncLocalStorage } = require('async_hooks'); const als = new AsyncLocalStorage(); als.run('kept', async () => { await new Promise((r) => setTimeout(r, 5)); console.log('store', als.getStore()); })"`);
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^store kept$/m);
    await runInTerminal(page, `echo 'export default 42;' > lib.mjs; echo 'new Function("s", "return import(s)")("./lib.mjs").then((m) => console.log("imported", m.default));' > dyn.js; node dyn.js`);
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^imported 42$/m);
    // What needs an OS fails when called, in one line (execSync works here now: node-threads-sync.e2e.ts).
    await runInTerminal(page, `node -e "require('net').connect(80)"; echo "connect=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^connect=1$/m);
    expect((await terminalText(page)).replace(/\n/g, "")).toMatch(/Error: node:net connect\(\) is not available in the browser runtime: it needs Node\.js, which the WebContainer runtime runs\./);
  });

  it("worker_threads' MessageChannel delivers values with Node's port API in the sandboxed worker, and the program ends once the port is closed", async () => {
    const page = await openBrowserRuntime();
    await runInTerminal(page, `node -e "const { port1, port2 } = new (require('worker_threads').MessageChannel)(); port2.on('message', (v) => { console.log('port got', v.n, v.bytes.length); port2.close(); }); const bytes = new Uint8Array(3); port1.postMessage({ n: 7, bytes }, [bytes.buffer]); console.log('sent', bytes.length)"; echo "ports=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^ports=0$/m);
    expect(await terminalText(page)).toMatch(/^sent 0\nport got 7 3\n/m);
  });

  it("runs node --test: passing files exit 0, a failing test exits 1 with the spec report", async () => {
    const page = await openBrowserRuntime();
    await runInTerminal(page, `mkdir -p test && echo "const test = require('node:test'); const assert = require('node:assert'); test('adds', () => assert.strictEqual(1 + 1, 2));" > test/math.test.js`);
    await runInTerminal(page, `node --test; echo "first=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^first=0$/m);
    const first = await terminalText(page);
    expect(first).toMatch(/✔ adds/);
    expect(first).toMatch(/ℹ pass 1/);
    await runInTerminal(page, `echo "import test from 'node:test'; import assert from 'node:assert/strict'; test('breaks', () => assert.equal(2 * 2, 5));" > test/broken.test.mjs`);
    // The report is longer than the screen: kept in a file, its lines counted.
    await runInTerminal(page, `node --test > report.txt; echo "second=$?"; grep -c breaks report.txt; grep "fail 1" report.txt; grep adds report.txt`);
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^second=1\n2\nℹ fail 1\n✔ adds \([\d.]+ms\)$/m);
  });

  it("keeps programs away from the app's database, the page and the network", async () => {
    const page = await openBrowserRuntime();
    const probe = [
      "const out = [];",
      "out.push('document=' + typeof document, 'window=' + typeof window, 'parent=' + typeof parent);",
      "try { const r = indexedDB.open('webcode'); r.onsuccess = () => { out.push('idb=opened'); done(); }; r.onerror = () => { out.push('idb=' + r.error.name); done(); }; } catch (e) { out.push('idb=' + e.name); done(); }",
      "function done() { fetch(location.origin + '/').then(() => out.push('fetch=ok'), (e) => out.push('fetch=' + e.name)).finally(() => console.log(out.join(' '))); }",
      "setTimeout(() => {}, 300);",
    ].join(" ");
    await runInTerminal(page, `echo ${JSON.stringify(probe).replace(/\$/g, "\\$")} > probe.js && node probe.js`);
    const result = /^document=(\w+) window=(\w+) parent=(\w+) idb=(\w+) fetch=(\w+)$/m;
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(result);
    const [, documentType, windowType, parentType, idb, fetched] = result.exec(await terminalText(page))!;
    expect([documentType, windowType, parentType]).toEqual(["undefined", "undefined", "undefined"]);
    // The sandbox's opaque origin may not open any database; its policy allows no connection.
    expect(idb).toBe("SecurityError");
    expect(fetched).toBe("TypeError");
    // The app itself still has its database.
    expect(await page.evaluate(async () => (await indexedDB.databases()).some((db) => db.name === "webcode"))).toBe(true);
  });

  it("ends an endless loop at once on Ctrl-C, and the shell goes on; a program handling SIGINT runs its handler", async () => {
    const page = await openBrowserRuntime();
    await runInTerminal(page, `node -e "console.log('spinning'); for (;;) {}"`);
    // The loop is running once it has printed (a fixed wait may end before node even starts when busy).
    await expect.poll(() => terminalText(page), { timeout: 20_000 }).toMatch(/^spinning$/m);
    const before = Date.now();
    await page.keyboard.press("Control+C");
    await runInTerminal(page, `echo "after=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^after=130$/m);
    expect(Date.now() - before).toBeLessThan(5000);
    await runInTerminal(page, `node -e "console.log('next', 1 + 1)"`);
    await expect.poll(() => terminalText(page), { timeout: 20_000 }).toMatch(/^next 2$/m);
    // Ctrl-C sends SIGINT (Stop would send SIGTERM): the program's SIGINT handler runs and its exit code stands.
    await runInTerminal(page, `node -e "for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => { console.log('got', s); process.exit(3); }); console.log('waiting'); setInterval(() => {}, 1000)"`);
    await expect.poll(() => terminalText(page), { timeout: 20_000 }).toMatch(/^waiting$/m);
    await page.keyboard.press("Control+C");
    await runInTerminal(page, `echo "handled=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^got SIGINT$/m);
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^handled=3$/m);
  });

  it("stops a flood of output within half a second of Ctrl-C: nothing more is printed after the prompt", async () => {
    const page = await openBrowserRuntime();
    await runInTerminal(page, `node -e "for (let i = 0; ; i++) console.log('flood ' + i)"`);
    await expect.poll(() => terminalText(page), { timeout: 20_000 }).toMatch(/^flood \d+$/m);
    // Timed in the page: from the keydown of Ctrl-C until a prompt is on the screen below the flood.
    await page.evaluate(() => {
      const state = window as unknown as { __stopped?: Promise<number> };
      state.__stopped = new Promise((resolve) => {
        let start = 0;
        window.addEventListener("keydown", () => (start = performance.now()), { capture: true, once: true });
        const check = () => {
          const rows = (document.querySelector(".terminal-host .xterm-rows") as HTMLElement).innerText.replace(/\u00a0/g, " ").trimEnd().split("\n");
          if (start > 0 && /^(flood \d+)?\^C$/.test(rows.at(-2) ?? "") && /\$$/.test(rows.at(-1) ?? "")) resolve(performance.now() - start);
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      });
    });
    await page.keyboard.press("Control+C");
    const stoppedMs = await page.evaluate(() => (window as unknown as { __stopped: Promise<number> }).__stopped);
    expect(stoppedMs).toBeLessThan(500);
    const screen = await terminalText(page);
    await page.waitForTimeout(500);
    expect(await terminalText(page)).toBe(screen);
    await runInTerminal(page, `echo "after=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^after=130$/m);
  });
});
