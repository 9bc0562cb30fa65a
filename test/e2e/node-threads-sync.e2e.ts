// worker_threads and the synchronous child_process calls in a real browser (the page is
// cross-origin isolated): a Worker runs as a nested worker of the program's sandboxed worker and
// shares a SharedArrayBuffer it blocks on with Atomics.wait; execSync blocks the program's worker
// while a node child (in a worker of its own) and a shell command run. Then a thread gets a
// MessagePort transferred between the real workers, runs execSync on its Worker's mailbox and
// serves curl through the page.
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";

const browser = useBrowser();

const THREADS = `
const { Worker } = require("worker_threads");
const cells = new Int32Array(new SharedArrayBuffer(8));
const code = "const { workerData, parentPort } = require('worker_threads'); const c = new Int32Array(workerData); Atomics.wait(c, 0, 0); Atomics.store(c, 1, Atomics.load(c, 0) * 2); require('fs').writeFileSync('thread.txt', 'by thread'); parentPort.postMessage('thread saw ' + Atomics.load(c, 0));";
const w = new Worker(code, { eval: true, workerData: cells.buffer });
w.on("message", (m) => console.log(m + ", doubled " + Atomics.load(cells, 1)));
w.on("exit", (exit) => console.log("thread exit " + exit + " " + require("fs").readFileSync("thread.txt", "utf8")));
setTimeout(() => { Atomics.store(cells, 0, 21); Atomics.notify(cells, 0); }, 100);
`;

const SYNC = `
const { execSync } = require("child_process");
const answer = execSync("node -e 'console.log(6 * 7); require(\\"fs\\").writeFileSync(\\"child.txt\\", \\"by child\\")'", { encoding: "utf8" }).trim();
console.log("node child " + answer + ", file " + require("fs").readFileSync("child.txt", "utf8") + ", shell " + execSync("echo hi | tr a-z A-Z").toString().trim());
try { execSync("exit 3", { stdio: "pipe" }); } catch (error) { console.log("status " + error.status); }
`;

// What differs from the in-process runs: a MessagePort transferred between real workers, a thread's
// execSync on the mailbox its Worker hands it, and a thread's server reached by curl through the page.
const PORTS = `
const { Worker, MessageChannel, isMainThread, workerData } = require("worker_threads");
if (isMainThread) {
  const { port1, port2 } = new MessageChannel();
  const w = new Worker(__filename, { workerData: { port: port2 }, transferList: [port2] });
  port1.on("message", (m) => { console.log("via port: " + m); if (m.startsWith("listening")) port1.close(); });
  w.on("exit", (code) => console.log("ports thread exit " + code));
} else {
  const http = require("http");
  const port = workerData.port;
  port.postMessage("sync " + require("child_process").execSync("echo hi | tr a-z A-Z").toString().trim());
  const server = http.createServer((req, res) => { res.end("thread served " + req.url + "\\n"); if (req.url === "/stop") server.close(); });
  server.listen(3123, () => port.postMessage("listening 3123"));
}
`;

const write = (name: string, text: string) => `echo ${Buffer.from(text).toString("base64")} | base64 -d > ${name}`;

describe("worker threads and synchronous children in the browser runtime", () => {
  it("runs a Worker on shared memory and an execSync of a node child and a shell command; a thread gets a transferred port, runs execSync and serves curl", async () => {
    const { page } = await browser.open("?runtime=browser");
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, write("threads.js", THREADS));
    await runInTerminal(page, write("sync.js", SYNC));
    await runInTerminal(page, `node threads.js; echo "threads=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/^threads=\d+$/m);
    await runInTerminal(page, `node sync.js; echo "sync=$?"`);
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/^sync=\d+$/m);
    const text = await terminalText(page);
    expect(text).toMatch(/^thread saw 21, doubled 42$/m);
    expect(text).toMatch(/^thread exit 0 by thread$/m);
    expect(text).toMatch(/^threads=0$/m);
    expect(text).toMatch(/^node child 42, file by child, shell HI$/m);
    expect(text).toMatch(/^status 3$/m);
    expect(text).toMatch(/^sync=0$/m);
    await runInTerminal(page, write("ports.js", PORTS));
    await runInTerminal(page, "node ports.js &");
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/via port: listening 3123$/m);
    await runInTerminal(page, `curl -s localhost:3123/hello; curl -s localhost:3123/stop`);
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/ports thread exit 0/);
    const served = await terminalText(page);
    expect(served).toMatch(/via port: sync HI$/m);
    expect(served).toMatch(/^thread served \/hello$/m);
    // The background program's "ports thread exit 0" may come right after this line, as in a real terminal.
    expect(served).toMatch(/^thread served \/stop/m);
  });
});
