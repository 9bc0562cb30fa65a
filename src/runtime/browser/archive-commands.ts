// `zip` and `unzip` for the browser runtime, with fflate (already the app's zip library) doing the
// compression. The flags are the common Info-ZIP ones: `zip [-r] [-j] [-q] [-0..-9] out.zip
// path...` and `unzip [-l] [-o|-n] [-q] [-p] [-d dir] file.zip [member...]`. Archives are
// untrusted: an entry that would land outside the destination (zip-slip: "../x", "/etc/x",
// "C:\x") makes unzip refuse the whole archive before it writes anything, and sizes are capped.
import { unzipSync, zipSync, type Unzipped, type Zippable } from "fflate";
import { defineCommand, type CustomCommand, type IFileSystem } from "just-bash";
import { concatBytes } from "../../base";

type Result = { stdout: string; stderr: string; exitCode: number; stdoutKind?: "text" | "bytes" };
interface Context {
  fs: IFileSystem;
  cwd: string;
}

/** The same bounds as a zip imported into a workspace (src/transfer/zip-limits.ts). */
export const UNZIP_MAX_BYTES = 500 * 1024 * 1024;
export const UNZIP_MAX_ENTRIES = 50_000;

export function archiveCommands(): CustomCommand[] {
  return [
    defineCommand("zip", (args, ctx) => zip(args, { fs: ctx.fs, cwd: ctx.cwd })),
    defineCommand("unzip", (args, ctx) => unzip(args, { fs: ctx.fs, cwd: ctx.cwd })),
  ];
}

const ZIP_USAGE = `Usage: zip [-r] [-j] [-q] [-0..-9] archive.zip file...
  -r   add folders with everything in them
  -j   store file names only, without their folders
  -q   quiet
  -0   store without compression; -1 (fastest) to -9 (smallest), default -6
`;

const UNZIP_USAGE = `Usage: unzip [-l] [-o|-n] [-q] [-p] [-d dir] archive.zip [member...]
  -l   list the archive's contents
  -d   extract into dir (created if missing)
  -o   overwrite existing files without asking
  -n   never overwrite existing files
  -p   write the members' contents to stdout
  -q   quiet
`;

// ---- zip ------------------------------------------------------------------------------------

async function zip(args: string[], ctx: Context): Promise<Result> {
  let recursive = false;
  let junkPaths = false;
  let quiet = false;
  let level = 6;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--help" || arg === "-h") return { stdout: ZIP_USAGE, stderr: "", exitCode: 0 };
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("-") && arg.length > 1 && operands.length === 0) {
      for (const flag of arg.slice(1)) {
        if (flag === "r") recursive = true;
        else if (flag === "j") junkPaths = true;
        else if (flag === "q") quiet = true;
        else if (/[0-9]/.test(flag)) level = Number(flag);
        else return { stdout: "", stderr: `zip error: unknown option -${flag}\n${ZIP_USAGE}`, exitCode: 16 };
      }
      continue;
    }
    operands.push(arg);
  }
  if (operands.length === 0) return { stdout: "", stderr: `zip error: no archive name given\n${ZIP_USAGE}`, exitCode: 16 };
  let archive = operands[0]!;
  if (!/\.[^/]*$/.test(archive.split("/").pop() ?? "")) archive += ".zip";
  const archivePath = ctx.fs.resolvePath(ctx.cwd, archive);
  const sources = operands.slice(1);
  if (sources.length === 0) return { stdout: "", stderr: `zip error: nothing to do (${archive}): name the files to add\n`, exitCode: 12 };

  const entries: Zippable = {};
  if (await ctx.fs.exists(archivePath)) {
    // Like Info-ZIP, an existing archive is updated: its entries stay, same names are replaced.
    try {
      Object.assign(entries, unzipSync(await ctx.fs.readFileBuffer(archivePath)));
    } catch {
      return { stdout: "", stderr: `zip error: ${archive} exists and is not a zip archive\n`, exitCode: 3 };
    }
  }

  let stdout = "";
  let stderr = "";
  let added = 0;
  const add = (name: string, data: Uint8Array | null, mtime: Date) => {
    const key = data === null ? `${name}/` : name;
    const verb = key in entries ? "updating" : "adding";
    entries[key] = data === null ? [new Uint8Array(), { level: 0, mtime }] : [data, { level: level as 0, mtime }];
    added++;
    if (!quiet) stdout += `  ${verb}: ${key}\n`;
  };

  const visit = async (operand: string, path: string): Promise<void> => {
    if (path === archivePath) return; // never the archive into itself
    const stat = await ctx.fs.stat(path);
    const name = junkPaths ? basename(operand) : entryName(operand);
    if (stat.isDirectory) {
      if (!junkPaths && name !== "") add(name, null, stat.mtime);
      if (!recursive) return;
      for (const child of (await ctx.fs.readdir(path)).sort()) {
        await visit(operand === "." ? child : `${operand.replace(/\/+$/, "")}/${child}`, `${path.replace(/\/$/, "")}/${child}`);
      }
      return;
    }
    if (name === "") return;
    add(name, await ctx.fs.readFileBuffer(path), stat.mtime);
  };

  for (const operand of sources) {
    const path = ctx.fs.resolvePath(ctx.cwd, operand);
    if (!(await ctx.fs.exists(path))) {
      stderr += `zip warning: name not matched: ${operand}\n`;
      continue;
    }
    try {
      await visit(operand, path);
    } catch (error) {
      return { stdout, stderr: `${stderr}zip error: could not read ${operand}: ${reason(error)}\n`, exitCode: 18 };
    }
  }
  if (added === 0) return { stdout, stderr: `${stderr}zip error: nothing to do (${archive})\n`, exitCode: 12 };
  try {
    await ctx.fs.writeFile(archivePath, zipSync(entries));
  } catch (error) {
    return { stdout, stderr: `${stderr}zip error: could not write ${archive}: ${reason(error)}\n`, exitCode: 15 };
  }
  return { stdout, stderr, exitCode: 0 };
}

/** The name an operand gets inside the archive: relative, no "./", "../" or leading "/" (as Info-ZIP). */
function entryName(operand: string): string {
  const parts = operand.split("/").filter((part) => part !== "" && part !== "." && part !== "..");
  return parts.join("/");
}

function basename(path: string): string {
  return path.replace(/\/+$/, "").split("/").pop() ?? path;
}

// ---- unzip ----------------------------------------------------------------------------------

async function unzip(args: string[], ctx: Context): Promise<Result> {
  let list = false;
  let overwrite: "ask" | "always" | "never" = "ask";
  let quiet = false;
  let toStdout = false;
  let destination: string | undefined;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--help" || arg === "-h") return { stdout: UNZIP_USAGE, stderr: "", exitCode: 0 };
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      const flags = arg.slice(1);
      for (let j = 0; j < flags.length; j++) {
        const flag = flags[j]!;
        if (flag === "l") list = true;
        else if (flag === "o") overwrite = "always";
        else if (flag === "n") overwrite = "never";
        else if (flag === "q") quiet = true;
        else if (flag === "p") toStdout = true;
        else if (flag === "d") {
          destination = flags.slice(j + 1) || args[++i];
          if (!destination) return { stdout: "", stderr: `unzip: -d needs a folder\n${UNZIP_USAGE}`, exitCode: 10 };
          break;
        } else return { stdout: "", stderr: `unzip: unknown option -${flag}\n${UNZIP_USAGE}`, exitCode: 10 };
      }
      continue;
    }
    operands.push(arg);
  }
  const archive = operands[0];
  if (archive === undefined) return { stdout: "", stderr: `unzip: no archive named\n${UNZIP_USAGE}`, exitCode: 10 };
  const members = operands.slice(1);

  let archivePath = ctx.fs.resolvePath(ctx.cwd, archive);
  if (!(await isFile(ctx.fs, archivePath)) && (await isFile(ctx.fs, `${archivePath}.zip`))) archivePath += ".zip";
  if (!(await isFile(ctx.fs, archivePath))) return { stdout: "", stderr: `unzip: cannot find or open ${archive}\n`, exitCode: 9 };

  // First pass: names and sizes only (nothing inflated), to list or to check before writing.
  const infos: Array<{ name: string; size: number }> = [];
  let data: Uint8Array;
  try {
    data = await ctx.fs.readFileBuffer(archivePath);
    unzipSync(data, {
      filter: (file) => {
        infos.push({ name: file.name, size: file.originalSize });
        return false;
      },
    });
  } catch {
    return { stdout: "", stderr: `unzip: ${archive} is not a zip archive (or it is damaged)\n`, exitCode: 9 };
  }
  const selected = infos.filter((info) => members.length === 0 || members.some((member) => matches(member, info.name)));
  if (members.length > 0 && selected.length === 0) {
    return { stdout: "", stderr: `unzip: none of ${members.join(" ")} found in ${archive}\n`, exitCode: 11 };
  }

  if (list) {
    const total = selected.reduce((sum, info) => sum + info.size, 0);
    let stdout = `Archive:  ${archive}\n  Length  Name\n---------  ----\n`;
    for (const info of selected) stdout += `${String(info.size).padStart(9)}  ${info.name}\n`;
    stdout += `---------  -------\n${String(total).padStart(9)}  ${selected.length} file${selected.length === 1 ? "" : "s"}\n`;
    return { stdout, stderr: "", exitCode: 0 };
  }

  if (selected.length > UNZIP_MAX_ENTRIES) {
    return { stdout: "", stderr: `unzip: ${archive} has ${selected.length} entries; the browser runtime extracts at most ${UNZIP_MAX_ENTRIES}\n`, exitCode: 1 };
  }
  const total = selected.reduce((sum, info) => sum + info.size, 0);
  if (total > UNZIP_MAX_BYTES) {
    return { stdout: "", stderr: `unzip: ${archive} unpacks to ${total} bytes; the browser runtime extracts at most ${UNZIP_MAX_BYTES}\n`, exitCode: 1 };
  }
  for (const info of selected) {
    if (!safeEntryPath(info.name)) {
      return {
        stdout: "",
        stderr: `unzip: refusing ${archive}: entry "${info.name}" would be written outside the destination folder (nothing was extracted)\n`,
        exitCode: 1,
      };
    }
  }

  const wanted = new Set(selected.map((info) => info.name));
  let contents: Unzipped;
  try {
    contents = unzipSync(data, { filter: (file) => wanted.has(file.name) });
  } catch (error) {
    return { stdout: "", stderr: `unzip: ${archive} could not be read: ${reason(error)}\n`, exitCode: 2 };
  }

  if (toStdout) {
    const bytes = selected.filter((info) => !info.name.endsWith("/")).map((info) => contents[info.name] ?? new Uint8Array());
    // just-bash carries bytes as a latin1 string marked "bytes", so pipes and redirects keep them.
    let stdout = "";
    for (const byte of concatBytes(bytes)) stdout += String.fromCharCode(byte);
    return { stdout, stderr: "", exitCode: 0, stdoutKind: "bytes" };
  }

  const root = destination === undefined ? ctx.cwd : ctx.fs.resolvePath(ctx.cwd, destination);
  let stdout = quiet ? "" : `Archive:  ${archive}\n`;
  let stderr = "";
  let exitCode = 0;
  try {
    await ctx.fs.mkdir(root, { recursive: true });
    for (const info of selected) {
      const relative = info.name.split("/").filter((part) => part !== "" && part !== ".").join("/");
      if (relative === "") continue;
      const target = `${root.replace(/\/$/, "")}/${relative}`;
      const shown = destination === undefined ? relative : `${destination.replace(/\/$/, "")}/${relative}`;
      if (info.name.endsWith("/")) {
        await ctx.fs.mkdir(target, { recursive: true });
        if (!quiet) stdout += `   creating: ${shown}/\n`;
        continue;
      }
      if (await ctx.fs.exists(target)) {
        if ((await ctx.fs.stat(target)).isDirectory) {
          stderr += `unzip: ${shown} is a folder; not replaced\n`;
          exitCode = 1;
          continue;
        }
        if (overwrite === "never") continue;
        if (overwrite === "ask") {
          // There is no one to ask in a script; keep the file and say how to replace it.
          stderr += `unzip: ${shown} exists; not replaced (-o overwrites, -n keeps existing files quietly)\n`;
          exitCode = 1;
          continue;
        }
      }
      const parent = target.slice(0, target.lastIndexOf("/"));
      if (parent !== "") await ctx.fs.mkdir(parent, { recursive: true });
      await ctx.fs.writeFile(target, contents[info.name] ?? new Uint8Array());
      if (!quiet) stdout += `  inflating: ${shown}\n`;
    }
  } catch (error) {
    return { stdout, stderr: `${stderr}unzip: ${reason(error)}\n`, exitCode: 2 };
  }
  return { stdout, stderr, exitCode };
}

/** False for names that would leave the destination: absolute, "..", drive letters, backslashes. */
export function safeEntryPath(name: string): boolean {
  if (name === "" || name.startsWith("/") || name.includes("\\") || /^[A-Za-z]:/.test(name) || name.includes("\0")) return false;
  return !name.split("/").includes("..");
}

function matches(pattern: string, name: string): boolean {
  if (pattern === name || `${pattern.replace(/\/$/, "")}/` === name) return true;
  if (!/[*?[]/.test(pattern)) return name.startsWith(`${pattern.replace(/\/$/, "")}/`);
  const source = pattern.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${source}$`).test(name);
}

async function isFile(fs: IFileSystem, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).isFile;
  } catch {
    return false;
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
