// Makes one page of the previewed site self-contained: the previewed page runs in an opaque origin,
// so nothing it names by URL can come from this origin's service worker. Its module scripts
// become imports through an import map whose entries are data: URLs of the compiled modules
// (module-compiler.ts), and its images, stylesheets, icons and classic scripts become data: URLs.
// Links to other pages stay as they are: a navigation does reach the service worker.
import { localReference, PreviewBuildError, textToBase64, type CompiledModule, type ModuleCompiler } from "./module-compiler";
import { preludeScript, type PreludeConfig } from "./prelude";
import { dirnameOf, joinPath } from "./preview-paths";
import { cssNotice, postcssSyntaxOf } from "./unsupported";
import type { PreviewFiles } from "./module-resolution";

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const STYLE = /(<style\b[^>]*>)([\s\S]*?)(<\/style\s*>)/gi;
const RESOURCE_TAG = /<(img|link|source|video|audio|track|input|embed|object)\b([^>]*?)(\/?)>/gi;
const ATTRIBUTE = /([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;

interface Attribute {
  name: string;
  value: string | undefined;
}

function parseAttributes(text: string): Attribute[] {
  const out: Attribute[] = [];
  for (const match of text.matchAll(ATTRIBUTE)) {
    const raw = match[2];
    const value = raw === undefined ? undefined : raw.startsWith('"') || raw.startsWith("'") ? raw.slice(1, -1) : raw;
    out.push({ name: match[1]!.toLowerCase(), value: value === undefined ? undefined : decodeEntities(value) });
  }
  return out;
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|quot|#39|apos|lt|gt);/g, (_, e: string) => ({ amp: "&", quot: '"', "#39": "'", apos: "'", lt: "<", gt: ">" })[e]!);
}

function renderAttributes(attributes: Attribute[]): string {
  return attributes.map((a) => (a.value === undefined ? ` ${a.name}` : ` ${a.name}="${a.value.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"`)).join("");
}

export interface PageContext {
  files: PreviewFiles;
  compiler: ModuleCompiler;
  /** The served folder (workspace path). */
  root: string;
  prelude: Omit<PreludeConfig, "buildError">;
}

/** A page as built: what a hot update (hot-update.ts) compares the next build with. */
export interface BuiltPage {
  /** The page's HTML with everything inlined but without the import map and the prelude. */
  shell: string;
  /** Every module of the page's graph by id. */
  modules: Map<string, CompiledModule>;
  /** The ids of the page's module scripts, in document order. */
  entries: string[];
}

/** The page at workspace path `htmlPath` with everything it needs inlined; errors become the overlay (and no `page`). */
export async function buildPage(html: string, htmlPath: string, context: PageContext): Promise<{ html: string; page?: BuiltPage }> {
  try {
    return await buildPageOrThrow(html, htmlPath, context);
  } catch (error) {
    if (!(error instanceof PreviewBuildError)) throw error;
    return { html: errorPage(error, context.prelude) };
  }
}

/** The page that shows a build error (syntax, module not found) in the overlay. */
export function errorPage(error: PreviewBuildError, prelude: PageContext["prelude"]): string {
  const buildError = { message: error.message, file: error.file, line: error.line, column: error.column };
  // No build id: an error page has nothing to update in place; the next save reloads it.
  const config = { base: prelude.base, root: prelude.root, notices: prelude.notices, buildError };
  return `<!doctype html><html><head><meta charset="utf-8"><title>Error</title><script>${preludeScript(config)}</script></head><body></body></html>`;
}

/** Throws PreviewBuildError. */
export async function buildPageOrThrow(html: string, htmlPath: string, context: PageContext): Promise<{ html: string; page: BuiltPage }> {
  const dir = dirnameOf(htmlPath);
  const exists = async (path: string | undefined) => path !== undefined && (await context.files.stat(path))?.kind === "file";
  /** The workspace file a reference of the page names: "/favicon.svg" is public/favicon.svg when the site has none of its own, as in Vite. */
  const target = async (ref: string): Promise<string | undefined> => {
    if (!localReference(ref)) return undefined;
    const clean = ref.replace(/[?#].*$/, "");
    const path = joinPath(clean.startsWith("/") ? context.root : dir, clean);
    if (!clean.startsWith("/") || (await exists(path))) return path;
    const fromPublic = joinPath(context.root, "public", clean);
    return (await exists(fromPublic)) ? fromPublic : path;
  };

  const entries: Array<{ path: string; source?: string }> = [];
  let inline = 0;
  const scripts: Array<{ match: string; replacement: string }> = [];
  for (const match of html.matchAll(SCRIPT)) {
    const attributes = parseAttributes(match[1]!);
    const type = attributes.find((a) => a.name === "type")?.value?.trim().toLowerCase();
    const src = attributes.find((a) => a.name === "src")?.value;
    if (type === "module") {
      let id: string;
      if (src !== undefined) {
        const path = await target(src);
        if (path === undefined) continue; // another site's script: left as written
        if (!(await exists(path))) throw new PreviewBuildError(`Module not found: "${src}" (a script of ${htmlPath})`, htmlPath, lineAt(html, match.index!));
        id = path;
        entries.push({ path });
      } else {
        id = `${htmlPath}?inline${inline++}`;
        entries.push({ path: id, source: match[2]! });
      }
      scripts.push({ match: match[0], replacement: `<script type="module">import ${JSON.stringify(context.compiler.urlOf(id))};</script>` });
    } else if (src !== undefined && (type === undefined || /javascript/.test(type))) {
      const path = await target(src);
      if (!(await exists(path))) continue;
      const rest = attributes.filter((a) => a.name !== "src");
      scripts.push({ match: match[0], replacement: `<script${renderAttributes([...rest, { name: "src", value: await context.compiler.dataUrl(path!) }])}></script>` });
    }
  }
  const modules = await context.compiler.compileGraph(entries);
  /** What the preview does not do for this page that Vite would (PostCSS syntax in its CSS). */
  const notes: string[] = [];
  let out = html;
  for (const { match, replacement } of scripts) out = out.replace(match, () => replacement);
  out = await replaceAsync(out, RESOURCE_TAG, async (tag, name: string, attrText: string, selfClose: string) => {
    const attributes = parseAttributes(attrText);
    const isStylesheet = name.toLowerCase() === "link" && /\bstylesheet\b/i.test(attributes.find((a) => a.name === "rel")?.value ?? "");
    let changed = false;
    for (const attribute of attributes) {
      if (attribute.value === undefined) continue;
      if (["src", "poster", "data"].includes(attribute.name) || (attribute.name === "href" && name.toLowerCase() === "link")) {
        const path = await target(attribute.value);
        if (!(await exists(path))) continue;
        const processed = isStylesheet ? await context.compiler.processCss(path!, await context.files.readText(path!)) : undefined;
        const css = processed?.css ?? "";
        if (processed) notes.push(...processed.notes);
        const syntax = isStylesheet ? postcssSyntaxOf(css) : undefined;
        if (syntax) notes.push(cssNotice(path!, syntax));
        attribute.value = isStylesheet
          ? `data:text/css;base64,${textToBase64(await context.compiler.inlineCssUrls(css, path!))}`
          : await context.compiler.dataUrl(path!);
        changed = true;
      } else if (attribute.name === "srcset") {
        const parts = await Promise.all(
          attribute.value.split(",").map(async (candidate) => {
            const [url, ...descriptor] = candidate.trim().split(/\s+/);
            const path = url ? await target(url) : undefined;
            return (await exists(path)) ? [await context.compiler.dataUrl(path!), ...descriptor].join(" ") : candidate.trim();
          }),
        );
        attribute.value = parts.join(", ");
        changed = true;
      }
    }
    return changed ? `<${name}${renderAttributes(attributes)}${selfClose ? " /" : ""}>` : tag;
  });
  out = await replaceAsync(out, STYLE, async (_all, open: string, css: string, close: string) => `${open}${await context.compiler.inlineCssUrls(css, htmlPath)}${close}`);
  const imports: Record<string, string> = {};
  for (const module of modules.values()) {
    imports[module.url] = module.dataUrl;
    notes.push(...module.notes);
  }
  const head =
    `<script type="importmap">${JSON.stringify({ imports }).replace(/</g, "\\u003c")}</script>` +
    `<script>${preludeScript({ ...context.prelude, notices: [...new Set([...(context.prelude.notices ?? []), ...notes])] })}</script>`;
  return { html: insertAtHeadStart(out, head), page: { shell: out, modules, entries: entries.map((e) => e.path) } };
}

/** After <head> (or <html>, or the doctype): before any script of the page, as an import map must be. */
function insertAtHeadStart(html: string, insert: string): string {
  for (const pattern of [/<head\b[^>]*>/i, /<html\b[^>]*>/i, /<!doctype[^>]*>/i]) {
    const match = pattern.exec(html);
    if (match) return html.slice(0, match.index + match[0].length) + insert + html.slice(match.index + match[0].length);
  }
  return insert + html;
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

async function replaceAsync(text: string, pattern: RegExp, replace: (...groups: string[]) => Promise<string>): Promise<string> {
  const matches = [...text.matchAll(pattern)];
  const replacements = await Promise.all(matches.map((m) => replace(...(m as unknown as string[]))));
  let out = "";
  let last = 0;
  matches.forEach((m, i) => {
    out += text.slice(last, m.index) + replacements[i]!;
    last = m.index! + m[0].length;
  });
  return out + text.slice(last);
}
