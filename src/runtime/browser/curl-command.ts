// `curl` for the browser runtime: the request is made by the page's fetch, so it is subject to what
// a web page may do. Written here rather than using just-bash's curl because that one is wired to a
// server-side allow-list, and its errors and help speak to just-bash's embedders; here the point is
// to tell a user plainly when the network or the server's CORS policy refused the request.
// Flags: -o FILE, -O, -s, -S, -L (redirects are always followed: a page cannot see them), -i, -I,
// -X METHOD, -H "Name: value", -d/--data/--data-raw/--data-binary (@file reads a file), -f/--fail,
// -m/--max-time SECS, -A, -u USER:PASS, -w '%{http_code}'.
import { defineCommand, type CustomCommand, type IFileSystem } from "just-bash";
import { EgressRefusedError } from "../egress";
import { ConnectionRefusedError } from "../sandbox/local-servers";

export type PageFetch = (input: string, init?: RequestInit) => Promise<Response>;
/** The fetch one command makes its requests with (the run's egress gate sees each, see ../egress.ts). */
export type CommandFetch = (fs: IFileSystem, argv: readonly string[]) => PageFetch;

type Result = { stdout: string; stderr: string; exitCode: number; stdoutKind?: "text" | "bytes" };

interface Request {
  url?: string;
  method?: string;
  headers: Array<[string, string]>;
  data: Array<{ text: string; file?: string; binary: boolean }>;
  output?: string;
  remoteName: boolean;
  silent: boolean;
  showError: boolean;
  include: boolean;
  head: boolean;
  fail: boolean;
  maxTimeMs?: number;
  writeOut?: string;
}

const HELP = `Usage: curl [options] URL
  -o, --output FILE      write the body to FILE
  -O, --remote-name      write the body to a file named like the URL's last part
  -s, --silent           no error messages (add -S to keep them)
  -S, --show-error       show errors even with -s
  -L, --location         follow redirects (the browser always does)
  -i, --include          show the response headers before the body
  -I, --head             send HEAD and show the headers only
  -X, --request METHOD   request method
  -H, --header "N: V"    add a request header
  -d, --data DATA        send DATA (POST unless -X says otherwise); @file sends a file
  -f, --fail             fail with exit code 22 on HTTP errors, without the body
  -m, --max-time SECS    give up after SECS seconds
  -A, --user-agent STR   User-Agent header (browsers may ignore it)
  -u, --user USER:PASS   basic authentication
  -w, --write-out FMT    print FMT afterwards (%{http_code}, %{content_type}, %{size_download}, %{url_effective})
Requests are made by this web page: the server must allow requests from it (CORS).
http://localhost:PORT reaches a server a program of this tab listens on (node's http.createServer).
`;

export function curlCommand(fetchFor: CommandFetch): CustomCommand {
  return defineCommand("curl", async (args, ctx) => {
    const parsed = parse(args);
    if (typeof parsed === "string") return parsed === "help" ? { stdout: HELP, stderr: "", exitCode: 0 } : fail(parsed, 2, false);
    return run(parsed, { fs: ctx.fs, cwd: ctx.cwd, signal: ctx.signal }, fetchFor(ctx.fs, ["curl", ...args]));
  });
}

function fail(message: string, exitCode: number, silent: boolean): Result {
  return { stdout: "", stderr: silent ? "" : `curl: (${exitCode}) ${message}\n`, exitCode };
}

function parse(args: string[]): Request | string {
  const request: Request = { headers: [], data: [], remoteName: false, silent: false, showError: false, include: false, head: false, fail: false };
  const valueFor = (flag: string, index: number): string => {
    const value = args[index];
    if (value === undefined) throw new Error(`option ${flag}: requires parameter`);
    return value;
  };
  try {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      const long = arg.startsWith("--") ? arg : undefined;
      if (long) {
        const [name, inline] = long.includes("=") ? [long.slice(0, long.indexOf("=")), long.slice(long.indexOf("=") + 1)] : [long, undefined];
        const value = () => inline ?? valueFor(name, ++i);
        switch (name) {
          case "--help":
            return "help";
          case "--output":
            request.output = value();
            break;
          case "--remote-name":
            request.remoteName = true;
            break;
          case "--silent":
            request.silent = true;
            break;
          case "--show-error":
            request.showError = true;
            break;
          case "--location":
            break;
          case "--include":
            request.include = true;
            break;
          case "--head":
            request.head = true;
            break;
          case "--request":
            request.method = value().toUpperCase();
            break;
          case "--header":
            addHeader(request, value());
            break;
          case "--data":
          case "--data-ascii":
          case "--data-raw":
          case "--data-binary":
            addData(request, value(), name !== "--data-raw", name === "--data-binary");
            break;
          case "--fail":
            request.fail = true;
            break;
          case "--max-time":
            request.maxTimeMs = seconds(value());
            break;
          case "--user-agent":
            request.headers.push(["User-Agent", value()]);
            break;
          case "--user":
            request.headers.push(["Authorization", `Basic ${btoa(value())}`]);
            break;
          case "--write-out":
            request.writeOut = value();
            break;
          case "--url":
            request.url = value();
            break;
          case "--compressed":
          case "--no-progress-meter":
          case "--progress-bar":
            break;
          default:
            return `option ${name}: is unknown (curl --help lists the supported options)`;
        }
        continue;
      }
      if (arg.startsWith("-") && arg.length > 1) {
        const flags = arg.slice(1);
        for (let j = 0; j < flags.length; j++) {
          const flag = flags[j]!;
          // A value may follow the letter directly (-oout.txt) or be the next argument.
          const value = () => {
            const rest = flags.slice(j + 1);
            j = flags.length;
            return rest !== "" ? rest : valueFor(`-${flag}`, ++i);
          };
          switch (flag) {
            case "o":
              request.output = value();
              break;
            case "O":
              request.remoteName = true;
              break;
            case "s":
              request.silent = true;
              break;
            case "S":
              request.showError = true;
              break;
            case "L":
              break;
            case "i":
              request.include = true;
              break;
            case "I":
              request.head = true;
              break;
            case "X":
              request.method = value().toUpperCase();
              break;
            case "H":
              addHeader(request, value());
              break;
            case "d":
              addData(request, value(), true, false);
              break;
            case "f":
              request.fail = true;
              break;
            case "m":
              request.maxTimeMs = seconds(value());
              break;
            case "A":
              request.headers.push(["User-Agent", value()]);
              break;
            case "u":
              request.headers.push(["Authorization", `Basic ${btoa(value())}`]);
              break;
            case "w":
              request.writeOut = value();
              break;
            default:
              return `option -${flag}: is unknown (curl --help lists the supported options)`;
          }
        }
        continue;
      }
      if (request.url !== undefined) return `only one URL at a time is supported (got ${request.url} and ${arg})`;
      request.url = arg;
    }
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (request.url === undefined) return "no URL specified (curl --help shows how to use it)";
  return request;
}

function addHeader(request: Request, header: string): void {
  const colon = header.indexOf(":");
  if (colon <= 0) throw new Error(`header "${header}" is not "Name: value"`);
  request.headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trim()]);
}

function addData(request: Request, value: string, allowFile: boolean, binary: boolean): void {
  if (allowFile && value.startsWith("@")) request.data.push({ text: "", file: value.slice(1), binary });
  else request.data.push({ text: value, binary });
}

function seconds(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`option --max-time: expected a number of seconds, got "${value}"`);
  return number * 1000;
}

async function run(request: Request, ctx: { fs: IFileSystem; cwd: string; signal?: AbortSignal }, fetchImpl: PageFetch): Promise<Result> {
  const quiet = request.silent && !request.showError;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(request.url!) ? request.url! : `http://${request.url!}`);
  } catch {
    return fail(`URL rejected: "${request.url}" is not a valid URL`, 3, quiet);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return fail(`unsupported protocol "${url.protocol.replace(/:$/, "")}" (only http and https)`, 1, quiet);

  let body: string | Uint8Array | undefined;
  if (request.data.length > 0) {
    const parts: Array<string | Uint8Array> = [];
    for (const part of request.data) {
      if (part.file === undefined) {
        parts.push(part.text);
        continue;
      }
      try {
        const bytes = await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, part.file));
        // Like curl: -d @file drops line breaks, --data-binary @file sends the bytes as they are.
        parts.push(part.binary ? bytes : new TextDecoder().decode(bytes).replace(/[\r\n]/g, ""));
      } catch {
        return fail(`could not read data file "${part.file}"`, 26, quiet);
      }
    }
    body = parts.length === 1 ? parts[0] : parts.map((part) => (typeof part === "string" ? part : new TextDecoder().decode(part))).join("&");
  }
  const method = request.method ?? (request.head ? "HEAD" : body !== undefined ? "POST" : "GET");
  const headers = new Headers();
  for (const [name, value] of request.headers) {
    try {
      headers.append(name, value);
    } catch {
      return fail(`header "${name}" is not allowed`, 2, quiet);
    }
  }
  if (body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/x-www-form-urlencoded");

  const controller = new AbortController();
  const onAbort = () => controller.abort();
  ctx.signal?.addEventListener("abort", onAbort, { once: true });
  let timedOut = false;
  const timer = request.maxTimeMs === undefined ? undefined : setTimeout(() => ((timedOut = true), controller.abort()), request.maxTimeMs);
  let response: Response;
  let bytes: Uint8Array;
  try {
    try {
      response = await fetchImpl(url.href, {
        method,
        headers,
        body: method === "GET" || method === "HEAD" ? undefined : (body as BodyInit | undefined),
        redirect: "follow",
        credentials: "omit",
        signal: controller.signal,
      });
      bytes = method === "HEAD" ? new Uint8Array() : new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (timedOut) return fail(`operation timed out after ${request.maxTimeMs} ms`, 28, quiet);
      if (controller.signal.aborted) return fail("stopped", 130, true);
      // Refused before anything was sent: say so, and make no second request to find out why.
      if (error instanceof EgressRefusedError) return fail(error.message, 7, quiet);
      // localhost:PORT with no program of this tab listening: refused at once, as on a machine.
      if (error instanceof ConnectionRefusedError) return fail(error.message, 7, quiet);
      return fail(await unreachable(url, fetchImpl, error), 7, quiet);
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    ctx.signal?.removeEventListener("abort", onAbort);
  }

  const headerText = `HTTP/1.1 ${response.status} ${response.statusText}\r\n${[...response.headers].map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n`;
  if (request.fail && response.status >= 400) return fail(`The requested URL returned error: ${response.status}`, 22, quiet);

  let stdout = "";
  if (request.head || request.include) stdout += headerText;
  const target = request.output ?? (request.remoteName ? remoteName(url) : undefined);
  if (target !== undefined) {
    if (target === "") return fail("remote file name has no length (use -o FILE)", 23, quiet);
    try {
      await ctx.fs.writeFile(ctx.fs.resolvePath(ctx.cwd, target), bytes);
    } catch (error) {
      return fail(`could not write "${target}": ${error instanceof Error ? error.message : String(error)}`, 23, quiet);
    }
  } else if (!request.head) {
    stdout += latin1(bytes);
  }
  if (request.writeOut !== undefined) {
    stdout += request.writeOut
      .replace(/%\{http_code\}|%\{response_code\}/g, String(response.status))
      .replace(/%\{content_type\}/g, response.headers.get("content-type") ?? "")
      .replace(/%\{size_download\}/g, String(bytes.length))
      .replace(/%\{url_effective\}/g, response.url || url.href)
      .replace(/\\n/g, "\n");
  }
  // Bytes as a latin1 string marked "bytes": pipes and redirects pass them through unchanged.
  return { stdout, stderr: "", exitCode: 0, stdoutKind: "bytes" };
}

/**
 * A page's fetch fails the same way whether the network refused or the server did not allow CORS.
 * A no-cors request (whose answer the page may not read) still succeeds when the server is up,
 * which tells the two apart as far as a browser allows.
 */
async function unreachable(url: URL, fetchImpl: PageFetch, error: unknown): Promise<string> {
  const detail = error instanceof Error && error.message && !/^(failed to fetch|fetch failed|load failed|networkerror.*)$/i.test(error.message) ? ` (${error.message})` : "";
  let serverAnswered = false;
  try {
    await fetchImpl(url.href, { method: "GET", mode: "no-cors", credentials: "omit", signal: AbortSignal.timeout(5000) });
    serverAnswered = true;
  } catch {
    serverAnswered = false;
  }
  return serverAnswered
    ? `could not read ${url.href}: the server answered but does not allow requests from a web page (CORS)${detail}`
    : `could not reach ${url.href}: the network refused it or the server does not allow requests from a web page (CORS)${detail}`;
}

function remoteName(url: URL): string {
  // Not percent-decoded, as curl: "%2F" must not turn into a folder separator.
  return url.pathname.split("/").pop() ?? "";
}

function latin1(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return out;
}
