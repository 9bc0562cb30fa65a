// Serves the built app (dist/) with the cross-origin isolation headers WebContainer needs.
// Usage: node scripts/serve.mjs [--port N] [--host H]; prints the URL.
import http from "node:http";
import { createReadStream, existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
// --dir dist-e2e serves the browser tests' build (see vite.config.ts); default dist/.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", option("dir", "dist"));
const port = Number(option("port", process.env.PORT ?? "4173"));
const host = option("host", process.env.HOST ?? "127.0.0.1");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".wasm": "application/wasm",
  ".ttf": "font/ttf",
  ".woff2": "font/woff2",
  ".map": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

export const ISOLATION_HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  // credentialless, not require-corp: cross-origin no-cors requests still load (without cookies), so
  // "Test connection" can probe a provider that refuses CORS and report it as such instead of "down".
  "Cross-Origin-Embedder-Policy": "credentialless",
  // Nothing of the app is meant to be embedded by other sites.
  "Cross-Origin-Resource-Policy": "same-origin",
};

if (!existsSync(path.join(root, "index.html"))) {
  console.error(`${path.relative(process.cwd(), root) || "."}/index.html is missing: run \`npm run build\` first (npm start does both).`);
  process.exit(1);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  let file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
  if (!file.startsWith(root)) {
    res.writeHead(403).end("Forbidden");
    return;
  }
  if (!existsSync(file) || statSync(file).isDirectory()) file = path.join(root, "index.html");
  const type = TYPES[path.extname(file)] ?? "application/octet-stream";
  const immutable = file.includes(`${path.sep}assets${path.sep}`);
  res.writeHead(200, {
    "Content-Type": type,
    "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
    ...ISOLATION_HEADERS,
  });
  createReadStream(file).pipe(res);
});

server.listen(port, host, () => {
  const address = server.address();
  const shownHost = host === "0.0.0.0" ? "localhost" : host;
  console.log(`webcode is running at http://${shownHost}:${typeof address === "object" && address ? address.port : port}/`);
});
