// The repository's own sync server script (`npm run sync-server`, scripts/sync-server.mjs) on a
// free port of 127.0.0.1 with a temporary database, for browser tests and benches.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signRoomToken } from "../../scripts/sync-server.mjs";

export interface RunningSyncServer {
  url: string;
  /** A room token signed with the server's secret. */
  token(room: string, access: "read" | "write"): string;
  stop(): Promise<void>;
}

export async function startSyncServerScript(): Promise<RunningSyncServer> {
  const secret = `test-${Math.random().toString(36).slice(2)}`;
  const dir = mkdtempSync(join(tmpdir(), "webcode-sync-e2e-"));
  const child = spawn(process.execPath, ["scripts/sync-server.mjs", "--port", "0", "--db", join(dir, "sync.sqlite")], {
    env: { ...process.env, SYNC_SECRET: secret },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (ws:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`sync-server exited ${code}: ${out}`)));
  });
  return {
    url,
    token: (room, access) => signRoomToken({ room, access, secret }),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
