// What the security tests share: an "attacker's" server on 127.0.0.1 that records every request it
// receives (method, path and body), and a provider config for a fake model server on 127.0.0.1.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ProviderConfig } from "../../src/providers";

export interface Attacker {
  url: string;
  /** "GET /collect?d=…" for each request, with " <body>" when it had one. */
  hits: string[];
  close(): Promise<void>;
}

export async function startAttacker(): Promise<Attacker> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      hits.push(`${req.method} ${req.url} ${body}`.trim());
      res.writeHead(200, { "content-type": "text/plain", "access-control-allow-origin": "*" }).end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One tool-calling model "m" of provider "local" at `baseUrl` (an OpenAI-compatible fake). */
export function localProvider(baseUrl: string): ProviderConfig {
  return {
    id: "local",
    kind: "openai-compatible",
    name: "Local",
    baseUrl,
    models: [{ id: "m", name: "m", providerId: "local", context: 100_000, output: 4_000, cost: { input: 0, output: 0 }, capabilities: { tools: true, images: false, reasoning: false, temperature: true } }],
  };
}
