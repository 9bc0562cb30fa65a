// A git smart-HTTP server on 127.0.0.1 that also plays the CORS proxy: a request for
// /<host>/<repo>.git/... (the form isomorphic-git's corsProxy option produces) is answered by the
// machine's `git http-backend` from repositories under a temp folder. Records each request's
// host and Authorization header, and can demand a token (401 without it).
import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeGitServer {
  url: string;
  requests: Array<{ host: string; path: string; authorization?: string }>;
  /** When set, requests must carry Basic auth with this password (401 otherwise). */
  requirePassword?: string;
  close(): Promise<void>;
}

export async function startFakeGitServer(projectRoot: string): Promise<FakeGitServer> {
  const state: FakeGitServer = { url: "", requests: [], close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const [, host = "", ...rest] = url.pathname.split("/");
    state.requests.push({ host, path: `/${rest.join("/")}`, authorization: req.headers.authorization });
    res.setHeader("Access-Control-Allow-Origin", "*");
    if (req.method === "OPTIONS") {
      // A page's POST with git's content types and Authorization is preflighted.
      res.writeHead(204, { "Access-Control-Allow-Methods": "GET, POST", "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "*" });
      res.end();
      return;
    }
    if (state.requirePassword !== undefined) {
      const auth = req.headers.authorization ?? "";
      const password = auth.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString().split(":").slice(1).join(":") : "";
      if (password !== state.requirePassword) {
        res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' });
        res.end();
        return;
      }
    }
    const backend = spawn("git", ["http-backend"], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: "1",
        REQUEST_METHOD: req.method ?? "GET",
        PATH_INFO: `/${rest.join("/")}`,
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        REMOTE_USER: "tester",
        REMOTE_ADDR: "127.0.0.1",
      },
    });
    req.pipe(backend.stdin);
    const chunks: Buffer[] = [];
    backend.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    backend.on("close", () => {
      const output = Buffer.concat(chunks);
      const split = output.indexOf("\r\n\r\n");
      const head = output.subarray(0, split).toString();
      const body = output.subarray(split + 4);
      let status = 200;
      for (const line of head.split("\r\n")) {
        const [name, ...value] = line.split(":");
        const text = value.join(":").trim();
        if (name!.toLowerCase() === "status") status = Number(text.split(" ")[0]);
        else if (name) res.setHeader(name, text);
      }
      res.writeHead(status);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
