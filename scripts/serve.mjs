// Serves the built app (dist/) with the cross-origin isolation headers WebContainer needs and the
// security headers of response-headers.mjs on every response.
// Usage: node scripts/serve.mjs [--port N] [--host H] [--dir dist-e2e] (or PORT, HOST); prints the
// URL. Without a chosen port, a taken 4173 moves on to the next free port; a chosen one that is
// taken is a one-line error saying how to choose another.
import http from "node:http";
import { createReadStream, existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { RESPONSE_HEADERS, responseHeadersFor } from "./response-headers.mjs";

export { ISOLATION_HEADERS, SECURITY_HEADERS, RESPONSE_HEADERS } from "./response-headers.mjs";

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

/**
 * The file under `root` a URL path names, or why there is none: "bad" for a path that cannot be
 * decoded or holds a NUL byte, "outside" for one that resolves outside `root`. Containment is
 * checked with path.relative, not a string prefix: "/../dist-evil/x" must not pass for "dist".
 */
export function resolveRequestPath(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { kind: "bad" };
  }
  if (decoded.includes("\0")) return { kind: "bad" };
  const file = path.resolve(root, `.${path.posix.sep}${decoded.replace(/\\/g, "/")}`);
  const relative = path.relative(root, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return { kind: "outside" };
  return { kind: "file", file };
}

function isFile(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** An http.Server serving `root` (not listening yet). */
export function createStaticServer(root) {
  const base = path.resolve(root);
  const plain = (res, status, text, extra = {}) => {
    res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache", ...RESPONSE_HEADERS, ...extra });
    res.end(text);
  };
  return http.createServer((req, res) => {
    try {
      if (req.method !== "GET" && req.method !== "HEAD") return plain(res, 405, "Method Not Allowed", { Allow: "GET, HEAD" });
      // Only the path: the query and fragment never name a file. The raw target is not parsed with
      // new URL(), which would normalise "/../" away before the containment check sees it.
      const target = req.url ?? "/";
      const rawPath = target.split(/[?#]/, 1)[0] || "/";
      if (!rawPath.startsWith("/")) return plain(res, 400, "Bad Request");
      const resolved = resolveRequestPath(base, rawPath);
      if (resolved.kind === "bad") return plain(res, 400, "Bad Request");
      if (resolved.kind === "outside") return plain(res, 403, "Forbidden");
      let file = resolved.file;
      if (!isFile(file)) {
        // The app is one page; a path without a file extension is a navigation and gets it. A
        // missing asset is a 404, not HTML that a script or stylesheet tag would choke on.
        if (path.extname(file) !== "") return plain(res, 404, "Not Found");
        file = path.join(base, "index.html");
      }
      const type = TYPES[path.extname(file)] ?? "application/octet-stream";
      const immutable = path.relative(base, file).split(path.sep)[0] === "assets";
      res.writeHead(200, {
        "Content-Type": type,
        "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
        ...responseHeadersFor(rawPath),
      });
      if (req.method === "HEAD") return res.end();
      const stream = createReadStream(file);
      stream.on("error", () => res.destroy());
      stream.pipe(res);
    } catch {
      if (!res.headersSent) plain(res, 500, "Internal Server Error");
      else res.destroy();
    }
  });
}

/** How many ports after the default one are tried when it is taken (and no port was chosen). */
export const PORT_ATTEMPTS = 20;
export const DEFAULT_PORT = 4173;

/**
 * Listens on `port`; when it is taken and the port was not chosen (`fixed` false), on the next free
 * one of the following PORT_ATTEMPTS, as Vite's own servers do. Resolves with the port listened on;
 * rejects with a one-line Error for the user (a chosen port that is taken, or none free).
 */
export function listen(server, { port, host, fixed }) {
  const last = fixed ? port : port + PORT_ATTEMPTS;
  return new Promise((resolve, reject) => {
    const attempt = (candidate) => {
      const onError = (error) => {
        server.off("listening", onListening);
        if (error.code === "EADDRINUSE" && candidate < last) return attempt(candidate + 1);
        if (error.code === "EADDRINUSE") {
          const range = fixed ? `Port ${port} is` : `Ports ${port}–${last} are`;
          return reject(new Error(`${range} in use on ${host}: choose another with PORT=5000 npm start (or npm run serve -- --port 5000).`));
        }
        if (error.code === "EACCES") return reject(new Error(`Not allowed to listen on ${host}:${candidate}: choose a port above 1023 with PORT=5000 npm start.`));
        if (error.code === "EADDRNOTAVAIL") return reject(new Error(`${host} is not an address of this machine: choose another with HOST=127.0.0.1 npm start.`));
        reject(error);
      };
      const onListening = () => {
        server.off("error", onError);
        const address = server.address();
        resolve(typeof address === "object" && address ? address.port : candidate);
      };
      server.once("error", onError);
      server.once("listening", onListening);
      server.listen(candidate, host);
    };
    attempt(port);
  });
}

async function main() {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
  };
  // --dir dist-e2e serves the browser tests' build (see vite.config.ts); default dist/.
  const dir = option("dir", "dist");
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", dir);
  const chosen = option("port", process.env.PORT);
  const port = Number(chosen ?? DEFAULT_PORT);
  const host = option("host", process.env.HOST ?? "127.0.0.1");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`"${chosen}" is not a port number: use a whole number from 1 to 65535, e.g. PORT=5000 npm start.`);
    process.exit(1);
  }
  if (!existsSync(path.join(root, "index.html"))) {
    console.error(`${dir}/index.html is missing: run \`npm run build\` first (npm start does both).`);
    process.exit(1);
  }
  const server = createStaticServer(root);
  let listening;
  try {
    listening = await listen(server, { port, host, fixed: chosen !== undefined });
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  const shownHost = host === "0.0.0.0" ? "localhost" : host;
  if (listening !== port) console.log(`Port ${port} is in use; using ${listening} instead (choose one with PORT=… npm start or --port).`);
  console.log(`webcode is running at http://${shownHost}:${listening}/`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
