import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: process.argv.slice(2) });
const page = await browser.newPage();
await page.goto("data:text/html,<p>x</p>");
const script = "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\nconst started = performance.now();\nlet sum = 0;\nfor (let i = 0; i < 5; i++) sum += fib(27);\nreturn Math.round(performance.now() - started);";
const results = await page.evaluate(async (script) => {
  const run = (body) => new Promise((resolve) => {
    const w = new Worker(URL.createObjectURL(new Blob([body], { type: "text/javascript" })));
    w.onmessage = (e) => { resolve(e.data); w.terminate(); };
  });
  const out = {};
  out.plainWorker = await run(`postMessage((function(){${script}})())`);
  out.indirectEvalWorker = await run(`const f = (0, eval)("(function (a,b,c) { return function (x,y) {" + ${JSON.stringify(script)} + "\\n} })"); postMessage(f()())`);
  out.plainWorker2 = await run(`postMessage((function(){${script}})())`);
  out.mainThread = (0, eval)(`(function(){${script}})`)();
  return out;
}, script);
console.log(JSON.stringify(results));
await browser.close();
