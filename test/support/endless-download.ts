// For the #import= tests: a server on 127.0.0.1 that streams a "zip" without end (so a size
// limit and Cancel can be seen to work while it streams), and an import context that records what
// the user is told.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ImportContext } from "../../src/ui/transfer";

/** Streams zeros in 64 KB chunks, every 5 ms, until the client goes away; counts what it sent. */
export async function endlessServer(cleanups: Array<() => unknown>): Promise<{ url: string; requests: () => number; sent: () => number; closed: Promise<void> }> {
  let requests = 0;
  let sent = 0;
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const server: Server = createServer((req, res) => {
    requests++;
    res.writeHead(200, { "content-type": "application/zip", "access-control-allow-origin": "*" });
    const chunk = Buffer.alloc(64 * 1024);
    const timer = setInterval(() => {
      if (res.destroyed) return;
      sent += chunk.length;
      res.write(chunk);
    }, 5);
    res.on("close", () => {
      clearInterval(timer);
      markClosed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/big.zip`, requests: () => requests, sent: () => sent, closed };
}

export function importContext(): ImportContext & { told: string[] } {
  const told: string[] = [];
  return {
    told,
    storage: {} as never,
    workspace: { v: 1, id: "ws", name: "Mine", createdAt: 1, updatedAt: 1 } as never,
    files: {} as never,
    workspaces: { refresh: async () => {}, switchTo: async () => {} },
    notifications: { info: (message: string) => told.push(message), error: () => {} },
  };
}
