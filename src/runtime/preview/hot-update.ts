// Hot updates of a previewed page: after a save, the modules that changed and every workspace module
// that (transitively) imports them are evaluated again under fresh URLs, while the rest of the page's
// modules (react, react-dom, other packages, untouched workspace modules) stay evaluated in the frame.
// The frame (prelude.ts) adds the fresh URLs through one more import map (Chromium merges import maps
// and ignores entries for URLs it already knows, so every version gets URLs of its own), replaces its
// body by the page's original one (a fresh root container for the app) and imports the entries
// again. Whatever this cannot do soundly is a full reload. docs/architecture.md "Preview".
import type { BuiltPage } from "./html-document";
import { textToBase64, type CompiledModule } from "./module-compiler";

export type HotUpdate =
  | { kind: "reload"; reason: string }
  | {
      kind: "hot";
      /** Import map entries for the fresh module URLs (URL → data: URL). */
      imports: Record<string, string>;
      /** The page's module scripts to import again, in order (fresh URLs). */
      entries: string[];
      /** Workspace paths of CSS modules whose <style data-file> is to be removed first. */
      removeStyles: string[];
      /** The page's HTML (without import map and prelude): its body replaces the running one. */
      shell: string;
      /** Workspace ids of the modules evaluated again (shown in tests and logs). */
      modules: string[];
    };

/** What the frame of one page build is running: the build, and the modules it has re-imported since. */
export interface FramePage {
  htmlPath: string;
  page: BuiltPage;
  /** Module id → its latest hot version (absent: the URL of the first load). */
  versions: Map<string, number>;
}

let counter = 0;

/** The URL module `id` has in the frame at `version`. */
export function versionedUrl(module: CompiledModule, version: number | undefined): string {
  if (version === undefined) return module.url;
  return `${module.url}${module.url.includes("?") ? "&" : "?"}hmr=${version}`;
}

/**
 * The update that brings a frame running `current` to `next` (the same page built again), or why it
 * needs a reload. On "hot", `current` is advanced to `next` (the frame is expected to apply it; if it
 * cannot, the panel reloads it, which starts a new FramePage).
 */
export function planHotUpdate(current: FramePage, next: BuiltPage): HotUpdate {
  if (next.shell !== current.page.shell) return { kind: "reload", reason: "the page's HTML or a file it inlines changed" };
  const before = current.page.modules;
  const changed = [...next.modules.entries()].filter(([id, module]) => before.get(id)?.code !== module.code).map(([id]) => id);
  if (changed.length === 0) return { kind: "reload", reason: "no module of the page changed (a file it fetches or links may have)" };
  const importers = new Map<string, string[]>();
  for (const [id, module] of next.modules) {
    for (const dep of new Set(module.deps)) importers.set(dep, [...(importers.get(dep) ?? []), id]);
  }
  const replaced = new Set<string>();
  const queue = [...changed];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (replaced.has(id)) continue;
    replaced.add(id);
    queue.push(...(importers.get(id) ?? []));
  }
  for (const id of replaced) {
    const module = next.modules.get(id)!;
    if (/(^|\/)node_modules\//.test(id)) return { kind: "reload", reason: `a package file changed (${id})` };
    if (module.kind === "cjs") return { kind: "reload", reason: `${id} is CommonJS` };
  }
  const entries = next.entries.filter((id) => replaced.has(id));
  if (entries.length === 0) return { kind: "reload", reason: "no script of the page imports what changed" };

  const versions = new Map(current.versions);
  const version = ++counter;
  for (const id of replaced) versions.set(id, version);
  const urlFor = (dep: string) => {
    const module = next.modules.get(dep);
    return module ? versionedUrl(module, versions.get(dep)) : dep;
  };
  const imports: Record<string, string> = {};
  for (const id of replaced) {
    const module = next.modules.get(id)!;
    const code = module.kind === "esm" ? module.renderWith(urlFor) : module.code;
    imports[versionedUrl(module, version)] = code === module.code ? module.dataUrl : `data:text/javascript;base64,${textToBase64(code)}`;
  }
  const css = (modules: Map<string, CompiledModule>) => [...modules.keys()].filter((id) => /\.css$/i.test(id));
  const gone = css(before).filter((id) => !next.modules.has(id));
  const removeStyles = [...new Set([...css(next.modules).filter((id) => replaced.has(id)), ...gone])];
  current.page = next;
  current.versions = versions;
  return { kind: "hot", imports, entries: entries.map((id) => urlFor(id)), removeStyles, shell: next.shell, modules: [...replaced] };
}
