// Issue 29 point 3, Express JSON API + static files + gzip: one program (Express 5, the compression
// middleware, express.static over a folder, JSON routes) listens and sends itself a set of requests
// with node:http, in this machine's Node and in the browser runtime's node. Each answer's status,
// the headers that matter (content-type, content-encoding, vary, content-length, cache-control,
// etag and its 304 on If-None-Match, location) and its body, decompressed here with this machine's
// zlib, must be the same. Date and Last-Modified differ by nature, and so does a static file's
// ETag (serve-static builds it from the file's mtime): its size part is compared, and it must bring
// a 304 back in both.
import { gunzipSync, inflateSync, brotliDecompressSync } from "node:zlib";
import { afterAll, expect, it } from "vitest";
import { installedPackageFiles } from "../support/installed-packages";
import { both, removeRealRunFolders } from "../support/real-tools";

afterAll(removeRealRunFolders);

const SERVER = `const express = require("express");
const compression = require("compression");
const http = require("http");
const path = require("path");

const app = express();
app.use(compression());
app.use(express.json());
app.use(express.static(path.join(__dirname, "public"), { maxAge: "1h" }));
const items = [];
app.get("/api/items", (req, res) => {
  const n = Number(req.query.n ?? 2);
  res.json(Array.from({ length: n }, (_, i) => ({ id: i, name: "item number " + i, tags: ["a", "b"] })));
});
app.post("/api/items", (req, res) => {
  items.push(req.body);
  res.status(201).location("/api/items/" + items.length).json({ saved: req.body, count: items.length });
});
app.get("/api/fail", () => {
  throw new Error("broken route");
});
app.use((err, req, res, next) => res.status(500).json({ error: err.message }));

const KEPT = ["content-type", "content-encoding", "vary", "content-length", "transfer-encoding", "cache-control", "accept-ranges", "etag", "location", "x-powered-by"];
const request = (method, url, headers = {}, body) =>
  new Promise((resolve, reject) => {
    const req = http.request({ port: server.address().port, path: url, method, headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        const kept = {};
        for (const name of KEPT) if (res.headers[name] !== undefined) kept[name] = res.headers[name];
        resolve({ status: res.statusCode, headers: kept, body: Buffer.concat(chunks).toString("base64") });
      });
    });
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });

const server = app.listen(0, async () => {
  const answers = {};
  const ask = async (label, ...args) => (answers[label] = await request(...args));
  const gzip = { "accept-encoding": "gzip" };
  await ask("index", "GET", "/", gzip);
  await ask("script gzip", "GET", "/app.js", gzip);
  await ask("script identity", "GET", "/app.js", { "accept-encoding": "identity" });
  await ask("script deflate", "GET", "/app.js", { "accept-encoding": "deflate" });
  await ask("script br", "GET", "/app.js", { "accept-encoding": "br" });
  await ask("script again", "GET", "/app.js", { ...gzip, "if-none-match": answers["script gzip"].headers.etag });
  await ask("style head", "HEAD", "/css/style.css", gzip);
  await ask("folder", "GET", "/css", gzip);
  await ask("missing", "GET", "/missing.txt", gzip);
  await ask("json small", "GET", "/api/items", gzip);
  await ask("json large", "GET", "/api/items?n=100", gzip);
  await ask("json again", "GET", "/api/items?n=100", { ...gzip, "if-none-match": answers["json large"].headers.etag });
  await ask("post", "POST", "/api/items", { ...gzip, "content-type": "application/json" }, JSON.stringify({ name: "new" }));
  await ask("error", "GET", "/api/fail", gzip);
  console.log(JSON.stringify(answers));
  server.close();
});
`;

const SCRIPT = `// A script big enough to be compressed (compression's threshold is 1 kB).\n${Array.from({ length: 60 }, (_, i) => `export const value${i} = "line ${i} of the script";\n`).join("")}`;

const FILES = {
  ...installedPackageFiles(["express", "compression"]),
  "server.js": SERVER,
  "public/index.html": "<!doctype html>\n<title>Static</title>\n<script type=module src=/app.js></script>\n",
  "public/app.js": SCRIPT,
  "public/css/style.css": "body { margin: 0; }\n",
};

const LABELS = ["index", "script gzip", "script identity", "script deflate", "script br", "script again", "style head", "folder", "missing", "json small", "json large", "json again", "post", "error"] as const;
type Answers = Record<(typeof LABELS)[number], Answer>;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An answer with its body decompressed as its Content-Encoding says, and a static file's ETag reduced to its size part. */
function readable(answer: Answer) {
  const raw = Buffer.from(answer.body, "base64");
  const encoding = answer.headers["content-encoding"];
  const body = encoding === "gzip" ? gunzipSync(raw) : encoding === "deflate" ? inflateSync(raw) : encoding === "br" ? brotliDecompressSync(raw) : raw;
  const etag = answer.headers.etag;
  // serve-static's ETag is W/"<size>-<mtime>"; Express's for a body is W/"<size>-<hash of the body>".
  const headers = { ...answer.headers, ...(etag && /^W\/"[0-9a-f]+-[0-9a-f]{1,12}"$/.test(etag) && answer.headers["cache-control"]?.includes("max-age") ? { etag: etag.replace(/-[0-9a-f]+"$/, '-<mtime>"') } : {}) };
  return { status: answer.status, headers, body: body.toString("utf8"), compressedBytes: encoding ? raw.length : undefined };
}

it("Express with compression, express.static and JSON routes: the same statuses, headers and decompressed bodies as in Node", async () => {
  const run = await both(["server.js"], FILES);
  expect(run.theirs.stderr).toBe("");
  expect(run.theirs.exitCode).toBe(0);
  const theirs = JSON.parse(run.theirs.stdout) as Answers;
  expect(Object.keys(theirs)).toEqual(LABELS);
  expect({ stderr: run.mine.stderr, exitCode: run.mine.exitCode }).toEqual({ stderr: "", exitCode: 0 });
  const mine = JSON.parse(run.mine.stdout) as Answers;

  // What the real server does, so the comparison below compares something.
  expect(theirs["script gzip"].headers["content-encoding"]).toBe("gzip");
  expect(readable(theirs["script gzip"]).body).toBe(SCRIPT);
  expect(theirs["script again"].status).toBe(304);
  expect(theirs["json large"].headers["content-encoding"]).toBe("gzip");
  expect(theirs["json again"].status).toBe(304);
  expect(theirs["index"].headers["content-encoding"]).toBeUndefined();
  expect(theirs["folder"].status).toBe(301);

  const compare = (answers: Answers) =>
    Object.fromEntries(Object.entries(answers).map(([label, answer]) => {
      const { compressedBytes: _bytes, ...rest } = readable(answer);
      return [label, rest];
    }));
  expect(compare(mine)).toEqual(compare(theirs));
}, 60_000);
