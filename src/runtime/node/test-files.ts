// Which files `node --test` runs: the ones named (files, folders or simple globs), or Node's default
// patterns (*.test.*, *-test.*, *_test.*, test-*.*, test.*, and files under test/ folders) outside
// node_modules, JavaScript and TypeScript alike.
import type { SandboxFs } from "../sandbox/sandbox-fs";
import { resolvePath } from "../sandbox/sandbox-fs";

const SOURCE = /\.(?:[cm]?js|[cm]?ts)$/;
const DEFAULT_NAME = /(?:^|\/)(?:[^/]*[.\-_]test\.[^/]+|test-[^/]+|test\.[^/]+)$/;

function walk(fs: SandboxFs, dir: string, out: string[]): void {
  for (const name of fs.readdir(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = `${dir === "/" ? "" : dir}/${name}`;
    if (fs.stat(path)?.kind === "dir") walk(fs, path, out);
    else out.push(path);
  }
}

function isDefaultTestFile(path: string, root: string): boolean {
  if (!SOURCE.test(path)) return false;
  const relative = path.slice(root.length);
  return DEFAULT_NAME.test(relative) || /(?:^|\/)test\//.test(relative);
}

function globToRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      out += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

export function findTestFiles(fs: SandboxFs, cwd: string, patterns: string[]): string[] {
  if (patterns.length === 0) {
    const all: string[] = [];
    walk(fs, cwd, all);
    return all.filter((path) => isDefaultTestFile(path, cwd)).sort();
  }
  const found = new Set<string>();
  for (const pattern of patterns) {
    const absolute = resolvePath(cwd, pattern);
    const node = fs.stat(absolute);
    if (node?.kind === "file") found.add(absolute);
    else if (node?.kind === "dir") {
      const all: string[] = [];
      walk(fs, absolute, all);
      for (const path of all) if (isDefaultTestFile(path, absolute)) found.add(path);
    } else if (/[*?]/.test(pattern)) {
      const matcher = globToRegExp(absolute);
      const all: string[] = [];
      walk(fs, cwd, all);
      for (const path of all) if (matcher.test(path)) found.add(path);
    }
  }
  return [...found].sort();
}
