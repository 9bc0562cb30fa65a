// What the built-in preview does not do that Vite would: Vite plugins other than React's, and
// PostCSS (Tailwind, autoprefixer) when the page has no node to run it with (postcss.ts runs it
// otherwise, and says why when it cannot). It never runs them silently wrong: each is named in a
// notice on the page, in its error overlay and in the terminal that started the preview.

import { viteProxyRules } from "./vite-proxy";

export const POSTCSS_CONFIGS = [
  "postcss.config.js", "postcss.config.cjs", "postcss.config.mjs", "postcss.config.ts", "postcss.config.mts", "postcss.config.cts",
  ".postcssrc", ".postcssrc.json", ".postcssrc.js", ".postcssrc.cjs", ".postcssrc.mjs", ".postcssrc.yaml", ".postcssrc.yml",
];
const TAILWIND_CONFIGS = ["tailwind.config.js", "tailwind.config.cjs", "tailwind.config.mjs", "tailwind.config.ts", "tailwind.config.mts", "tailwind.config.cts"];
export const VITE_CONFIGS = ["vite.config.js", "vite.config.ts", "vite.config.mjs", "vite.config.mts", "vite.config.cjs", "vite.config.cts"];
/** What the preview does itself: JSX/TSX (React's plugin's job), so they need no warning. */
const SUPPORTED_VITE_PLUGINS = new Set(["@vitejs/plugin-react", "@vitejs/plugin-react-swc"]);

export const WEBCONTAINER_RUNS_IT = "WebContainer runs it";

/** The modules a config file imports (import … from, import(), require()). */
function importedModules(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/\b(?:from|import|require)\s*\(?\s*(["'])([^"'\n]+)\1/g)) names.push(match[2]!);
  return names;
}

/** Package names (not files, not Node's modules). */
function packageName(specifier: string): string | undefined {
  if (/^(\.|\/|node:)/.test(specifier)) return undefined;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  return ["path", "url", "fs", "module", "process", "os"].includes(name) ? undefined : name;
}

/** The plugins a PostCSS config names: the keys of its `plugins` object and the packages it imports. */
export function postcssPluginsOf(text: string): string[] {
  const names = new Set<string>();
  for (const specifier of importedModules(text)) {
    const name = packageName(specifier);
    if (name) names.add(name);
  }
  const plugins = /\bplugins\b["']?\s*:\s*([[{])/.exec(text);
  if (plugins) {
    const body = text.slice(plugins.index + plugins[0].length);
    const end = body.indexOf(plugins[1] === "{" ? "}\n" : "]");
    const inner = end < 0 ? body : body.slice(0, end);
    for (const match of inner.matchAll(/(?:^|[{,\s])(["']?)(@?[A-Za-z][\w./@-]*)\1\s*:/g)) names.add(match[2]!);
    for (const match of inner.matchAll(/^\s*([A-Za-z][\w./@-]*)\s*:/gm)) names.add(match[1]!);
  }
  return [...names].filter((n) => n !== "postcss" && n !== "postcss-load-config");
}

/** The Vite plugins a vite.config imports, other than those the preview does without (React's). */
export function vitePluginsOf(text: string): string[] {
  const names = new Set<string>();
  for (const specifier of importedModules(text)) {
    const name = packageName(specifier);
    if (name && name !== "vite" && name !== "vitest" && !SUPPORTED_VITE_PLUGINS.has(name)) names.add(name);
  }
  return [...names];
}

/** The PostCSS-only syntax a CSS file uses (Tailwind's directives), or undefined. */
export function postcssSyntaxOf(css: string): string | undefined {
  const stripped = css.replace(/\/\*[\s\S]*?\*\//g, "");
  const match = /@tailwind\b|@apply\b|@import\s+(?:url\()?["']tailwindcss[^"']*["']|@config\b|@plugin\b|@theme\b|@custom-variant\b/.exec(stripped);
  return match ? match[0].replace(/\s+/g, " ") : undefined;
}

/** The notice for a CSS file that uses PostCSS-only syntax. */
export function cssNotice(path: string, syntax: string): string {
  return `${path} uses ${syntax}, which needs PostCSS/Tailwind: the built-in preview does not apply it (the CSS is used as written); ${WEBCONTAINER_RUNS_IT}.`;
}

/**
 * The notices for the project in a folder, from its config files: `read(name)` gives the text of
 * a file of the folder, or undefined when there is none. `postcssRuns`: the preview runs the
 * project's PostCSS (postcss.ts), which names what it could not apply itself.
 */
export async function configNotices(read: (name: string) => Promise<string | undefined>, options: { postcssRuns?: boolean } = {}): Promise<string[]> {
  const notices: string[] = [];
  const first = async (names: string[]) => {
    for (const name of names) {
      const text = await read(name);
      if (text !== undefined) return { name, text };
    }
    return undefined;
  };
  const postcss = await first(POSTCSS_CONFIGS);
  if (postcss && !options.postcssRuns) {
    const plugins = postcssPluginsOf(postcss.text);
    notices.push(`PostCSS (${postcss.name}${plugins.length ? `: ${plugins.join(", ")}` : ""}) is not applied by the built-in preview; ${WEBCONTAINER_RUNS_IT}.`);
  }
  const tailwind = await first(TAILWIND_CONFIGS);
  if (tailwind && !(options.postcssRuns && postcss)) notices.push(`Tailwind (${tailwind.name}) is not applied by the built-in preview: its utility classes have no effect here; ${WEBCONTAINER_RUNS_IT}.`);
  const vite = await first(VITE_CONFIGS);
  if (vite) {
    const plugins = vitePluginsOf(vite.text);
    if (plugins.length > 0) notices.push(`${vite.name} uses plugins the built-in preview does not run: ${plugins.join(", ")}; ${WEBCONTAINER_RUNS_IT}.`);
    for (const rule of viteProxyRules(vite.text).filter((r) => r.unreadRewrite)) {
      notices.push(`${vite.name}: the rewrite of server.proxy['${rule.context}'] is not applied by the built-in preview (only path.replace(/…/, '…') is); requests keep their path.`);
    }
  }
  return notices;
}
