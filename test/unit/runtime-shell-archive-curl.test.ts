// zip, unzip and curl in the browser runtime. curl talks to a real HTTP server on 127.0.0.1 (Node's
// fetch stands in for the page's); CORS refusals, which only a browser produces, use a fake fetch.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { strToU8, unzipSync, zipSync } from "fflate";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime, type BrowserRuntimeOptions } from "../../src/runtime/browser";
import { openStorage } from "../../src/storage";

let counter = 0;
const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

async function open(options: BrowserRuntimeOptions = {}) {
  const storage = await openStorage({ name: `runtime-archive-curl-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  const runtime = createBrowserRuntime(files, options);
  disposers.push(() => {
    runtime.dispose();
    files.dispose();
  });
  return { files, runtime };
}

describe("zip and unzip", () => {
  it("zip -r packs a folder that unzip -d unpacks byte for byte", async () => {
    const { files, runtime } = await open();
    await files.writeFile("proj/src/a.txt", "alpha\n");
    await files.writeFile("proj/bin/data.bin", new Uint8Array([0, 255, 1, 128]));
    const zipped = await runtime.exec("zip -r out.zip proj");
    expect(zipped.exitCode).toBe(0);
    expect(zipped.output).toContain("adding: proj/src/a.txt");
    const entries = unzipSync(await files.readFile("out.zip"));
    expect(Object.keys(entries).sort()).toEqual(["proj/", "proj/bin/", "proj/bin/data.bin", "proj/src/", "proj/src/a.txt"]);

    const unzipped = await runtime.exec("unzip out.zip -d copy");
    expect(unzipped.exitCode).toBe(0);
    expect(unzipped.output).toContain("inflating: copy/proj/src/a.txt");
    expect(await files.readText("copy/proj/src/a.txt")).toBe("alpha\n");
    expect([...(await files.readFile("copy/proj/bin/data.bin"))]).toEqual([0, 255, 1, 128]);
  });

  it("zip without -r adds only the folder entry; a missing name is a warning; nothing to add fails", async () => {
    const { files, runtime } = await open();
    await files.writeFile("dir/inner.txt", "x");
    await runtime.exec("zip flat dir");
    expect(Object.keys(unzipSync(await files.readFile("flat.zip")))).toEqual(["dir/"]);
    const missing = await runtime.exec("zip some.zip nope.txt");
    expect(missing.exitCode).toBe(12);
    expect(missing.output).toContain("zip warning: name not matched: nope.txt");
    expect(await files.exists("some.zip")).toBe(false);
  });

  it("zip -r of the current folder leaves the archive itself out; -j keeps only file names", async () => {
    const { files, runtime } = await open();
    await files.writeFile("a.txt", "a");
    await files.writeFile("sub/b.txt", "b");
    expect(await runtime.exec("zip -qr all.zip .")).toMatchObject({ output: "", exitCode: 0 });
    expect(Object.keys(unzipSync(await files.readFile("all.zip"))).sort()).toEqual(["a.txt", "sub/", "sub/b.txt"]);
    await runtime.exec("zip -qj flat.zip sub/b.txt a.txt");
    expect(Object.keys(unzipSync(await files.readFile("flat.zip"))).sort()).toEqual(["a.txt", "b.txt"]);
    // An existing archive is updated, as Info-ZIP does.
    await files.writeFile("a.txt", "changed");
    expect((await runtime.exec("zip flat.zip a.txt")).output).toContain("updating: a.txt");
    const updated = unzipSync(await files.readFile("flat.zip"));
    expect(Object.keys(updated).sort()).toEqual(["a.txt", "b.txt"]);
    expect(new TextDecoder().decode(updated["a.txt"])).toBe("changed");
  });

  it("unzip -l lists names and sizes without extracting", async () => {
    const { files, runtime } = await open();
    await files.writeFile("in.zip", zipSync({ "a.txt": strToU8("12345"), "sub/": new Uint8Array(), "sub/b.txt": strToU8("xy") }));
    const listed = await runtime.exec("unzip -l in.zip");
    expect(listed.exitCode).toBe(0);
    expect(listed.output).toMatch(/^ +5 {2}a\.txt$/m);
    expect(listed.output).toMatch(/^ +2 {2}sub\/b\.txt$/m);
    expect(listed.output).toMatch(/^ +7 {2}3 files$/m);
    expect(await files.exists("a.txt")).toBe(false);
  });

  it("keeps existing files unless -o, and -n keeps them quietly", async () => {
    const { files, runtime } = await open();
    await files.writeFile("in.zip", zipSync({ "a.txt": strToU8("from zip") }));
    await files.writeFile("a.txt", "mine");
    const asked = await runtime.exec("unzip in.zip");
    expect(asked.exitCode).toBe(1);
    expect(asked.output).toContain("a.txt exists; not replaced (-o overwrites");
    expect(await files.readText("a.txt")).toBe("mine");
    expect((await runtime.exec("unzip -n in.zip")).exitCode).toBe(0);
    expect(await files.readText("a.txt")).toBe("mine");
    expect((await runtime.exec("unzip -o in.zip")).exitCode).toBe(0);
    expect(await files.readText("a.txt")).toBe("from zip");
  });

  it.each(["../evil.txt", "/etc/evil.txt", "a/../../evil.txt", "C:\\evil.txt", "a\\..\\..\\evil.txt"])(
    "refuses an archive with the entry %s and writes nothing",
    async (name) => {
      const { files, runtime } = await open();
      await files.writeFile("work/bad.zip", zipSync({ "fine.txt": strToU8("ok"), [name]: strToU8("pwned") }));
      const result = await runtime.exec("unzip -o bad.zip", { cwd: "work" });
      expect(result.exitCode).toBe(1);
      expect(result.output).toMatch(/refusing bad\.zip: entry ".*" would be written outside the destination folder/);
      expect((await files.listAll()).map((entry) => entry.path).sort()).toEqual(["work", "work/bad.zip"]);
    },
  );

  it("says clearly when the file is not a zip or does not exist", async () => {
    const { files, runtime } = await open();
    await files.writeFile("notes.zip", "plain text");
    expect((await runtime.exec("unzip notes.zip")).output).toContain("unzip: notes.zip is not a zip archive (or it is damaged)");
    expect((await runtime.exec("unzip ghost.zip")).output).toContain("unzip: cannot find or open ghost.zip");
  });

  it("unzip -p writes a member to stdout for a pipe", async () => {
    const { files, runtime } = await open();
    await files.writeFile("in.zip", zipSync({ "a.txt": strToU8("one\ntwo\n") }));
    expect((await runtime.exec("unzip -p in.zip a.txt | wc -l")).output.trim()).toBe("2");
  });
});

describe("curl", () => {
  let server: Server;
  let base: string;
  const requests: Array<{ method: string; url: string; headers: IncomingMessage["headers"]; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
        if (req.url === "/hello.txt") {
          res.writeHead(200, { "content-type": "text/plain", "x-test": "yes" });
          res.end(req.method === "HEAD" ? undefined : "hello from the server\n");
        } else if (req.url === "/moved") {
          res.writeHead(302, { location: "/hello.txt" });
          res.end();
        } else if (req.url === "/echo") {
          res.writeHead(201, { "content-type": "application/json" });
          res.end(JSON.stringify({ method: req.method, body, type: req.headers["content-type"], token: req.headers["x-token"] }));
        } else if (req.url === "/bytes.bin") {
          res.writeHead(200, { "content-type": "application/octet-stream" });
          res.end(Buffer.from([0, 1, 254, 255]));
        } else if (req.url === "/slow") {
          setTimeout(() => res.end("late"), 5000);
        } else {
          res.writeHead(404, { "content-type": "text/plain" });
          res.end("no such page\n");
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("prints the body, and -o / -O write it to a file", async () => {
    const { files, runtime } = await open();
    expect(await runtime.exec(`curl -s ${base}/hello.txt`)).toMatchObject({ output: "hello from the server\n", exitCode: 0 });
    expect((await runtime.exec(`curl -s -o saved.txt ${base}/hello.txt`)).output).toBe("");
    expect(await files.readText("saved.txt")).toBe("hello from the server\n");
    await runtime.exec(`mkdir dl && cd dl && curl -sO ${base}/bytes.bin`);
    expect([...(await files.readFile("dl/bytes.bin"))]).toEqual([0, 1, 254, 255]);
  });

  it("-i shows the status line and headers, -I only those (a HEAD request)", async () => {
    const { runtime } = await open();
    const included = (await runtime.exec(`curl -si ${base}/hello.txt`)).output;
    expect(included).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(included).toContain("x-test: yes\r\n");
    expect(included).toMatch(/\r\n\r\nhello from the server\n$/);
    requests.length = 0;
    const head = (await runtime.exec(`curl -sI ${base}/hello.txt`)).output;
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).not.toContain("hello from the server");
    expect(requests[0]?.method).toBe("HEAD");
  });

  it("sends -X, -H and -d (also @file), and follows redirects with -L", async () => {
    const { files, runtime } = await open();
    const posted = JSON.parse((await runtime.exec(`curl -s -H 'X-Token: abc' -d 'a=1' -d 'b=2' ${base}/echo`)).output);
    expect(posted).toEqual({ method: "POST", body: "a=1&b=2", type: "application/x-www-form-urlencoded", token: "abc" });
    await files.writeFile("payload.json", '{"x":\n1}\n');
    const put = JSON.parse(
      (await runtime.exec(`curl -s -X PUT -H 'Content-Type: application/json' --data-binary @payload.json ${base}/echo`)).output,
    );
    expect(put).toEqual({ method: "PUT", body: '{"x":\n1}\n', type: "application/json" });
    expect((await runtime.exec(`curl -sL ${base}/moved`)).output).toBe("hello from the server\n");
  });

  it("--fail turns an HTTP error into exit code 22 without the body; without it the body shows", async () => {
    const { runtime } = await open();
    expect(await runtime.exec(`curl -s ${base}/missing`)).toMatchObject({ output: "no such page\n", exitCode: 0 });
    const failed = await runtime.exec(`curl --fail ${base}/missing`);
    expect(failed.exitCode).toBe(22);
    expect(failed.output).toBe("curl: (22) The requested URL returned error: 404\n");
    expect(await runtime.exec(`curl -sf ${base}/missing`)).toMatchObject({ output: "", exitCode: 22 });
  });

  it("says plainly when the server cannot be reached", async () => {
    const { runtime } = await open();
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, "127.0.0.1", () => {
        const port = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(port));
      });
    });
    const result = await runtime.exec(`curl http://127.0.0.1:${closed}/x`);
    expect(result.exitCode).toBe(7);
    expect(result.output).toMatch(
      /^curl: \(7\) could not reach http:\/\/127\.0\.0\.1:\d+\/x: the network refused it or the server does not allow requests from a web page \(CORS\)/,
    );
    expect(await runtime.exec(`curl -s http://127.0.0.1:${closed}/x`)).toMatchObject({ output: "", exitCode: 7 });
  });

  it("tells a CORS refusal apart when the server does answer a no-cors request", async () => {
    const modes: Array<RequestMode | undefined> = [];
    const fetch = async (_url: string, init?: RequestInit) => {
      modes.push(init?.mode);
      if (init?.mode === "no-cors") return new Response(null, { status: 200 });
      throw new TypeError("Failed to fetch");
    };
    const { runtime } = await open({ fetch });
    const result = await runtime.exec("curl https://api.example.test/data");
    expect(result.exitCode).toBe(7);
    expect(result.output).toBe(
      "curl: (7) could not read https://api.example.test/data: the server answered but does not allow requests from a web page (CORS)\n",
    );
    expect(modes).toEqual([undefined, "no-cors"]);
  });

  it("-m gives up after the time, and an interrupted download writes nothing", async () => {
    const { files, runtime } = await open();
    // The server answers after 5 s; each bound proves the early end and leaves room for a loaded machine.
    let started = Date.now();
    const timed = await runtime.exec(`curl -m 0.3 -o late.txt ${base}/slow`);
    expect(timed.exitCode).toBe(28);
    expect(timed.output).toContain("curl: (28) operation timed out after 300 ms");
    expect(Date.now() - started).toBeLessThan(4000);
    const controller = new AbortController();
    started = Date.now();
    setTimeout(() => controller.abort(), 200);
    const aborted = await runtime.exec(`curl -s -o late.txt ${base}/slow`, { signal: controller.signal });
    expect(aborted.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await files.exists("late.txt")).toBe(false);
  });

  it("rejects unknown options and other protocols with a clear message", async () => {
    const { runtime } = await open();
    expect((await runtime.exec("curl --frobnicate http://x")).output).toContain("option --frobnicate: is unknown");
    expect((await runtime.exec("curl ftp://example.test/f")).output).toContain('unsupported protocol "ftp"');
    expect((await runtime.exec("curl --help")).output).toContain("must allow requests from it (CORS)");
  });
});
