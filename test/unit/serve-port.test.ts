// npm start on a taken port (issue 31 point 4): without a chosen port the server moves on to the
// next free one (and says so); a chosen port that is taken is a one-line error saying how to choose
// another, not Node's EADDRINUSE stack.
import { createServer, type Server } from "node:net";
import type { Server as HttpServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createStaticServer, listen } from "../../scripts/serve.mjs";

const open: Array<Server | HttpServer> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => new Promise((resolve) => s.close(() => resolve(undefined)))));
});

/** Takes a free port on 127.0.0.1 and keeps it taken. */
async function takenPort(): Promise<number> {
  const blocker = createServer();
  open.push(blocker);
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const address = blocker.address();
  return typeof address === "object" && address ? address.port : 0;
}

describe("serve.mjs on a taken port", () => {
  it("moves on to the next free port when none was chosen", async () => {
    const port = await takenPort();
    const server = createStaticServer("dist");
    open.push(server);
    const listening = await listen(server, { port, host: "127.0.0.1", fixed: false });
    expect(listening).toBeGreaterThan(port);
    expect(listening).toBeLessThanOrEqual(port + 20);
  });

  it("says in one line how to choose another when the chosen port is taken", async () => {
    const port = await takenPort();
    const server = createStaticServer("dist");
    open.push(server);
    const failure = listen(server, { port, host: "127.0.0.1", fixed: true });
    await expect(failure).rejects.toThrow(new RegExp(`^Port ${port} is in use on 127\\.0\\.0\\.1: choose another with PORT=\\d+ npm start \\(or npm run serve -- --port \\d+\\)\\.$`));
  });
});
