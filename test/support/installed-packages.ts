// The repository's own installed packages (node_modules) as a test workspace's files, for running
// real tools in the browser runtime without a registry: a package and its dependencies, resolved as
// Node resolves them (nested node_modules first, then the parent folders'), JavaScript and JSON only.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** Each named package and its dependencies' .js/.cjs/.mjs/.json files, keyed `node_modules/…` (relative to the workspace). */
export function installedPackageFiles(names: string[], root = process.cwd()): Record<string, string> {
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    let dir: string | undefined;
    for (let at = from; ; at = path.dirname(path.dirname(at))) {
      const candidate = path.join(at, "node_modules", name);
      if (existsSync(path.join(root, candidate, "package.json"))) {
        dir = candidate;
        break;
      }
      if (at === "." || at === "" || at === path.dirname(at)) break;
    }
    if (!dir) throw new Error(`${name} is not installed in ${root}/node_modules`);
    if (seen.has(dir)) return;
    seen.add(dir);
    const walk = (sub: string) => {
      for (const entry of readdirSync(path.join(root, sub))) {
        const relative = `${sub}/${entry}`;
        if (statSync(path.join(root, relative)).isDirectory()) {
          if (entry !== "node_modules") walk(relative);
        } else if (/\.(js|cjs|mjs|json)$/.test(entry)) out[relative] = readFileSync(path.join(root, relative), "utf8");
      }
    };
    walk(dir);
    const manifest = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, dir);
  };
  for (const name of names) visit(name, ".");
  return out;
}
