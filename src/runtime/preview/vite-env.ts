// import.meta.env as Vite defines it: the VITE_* variables of .env, .env.local, .env.[mode] and
// .env.[mode].local (later files win), plus MODE, DEV, PROD, SSR and BASE_URL. Other variables
// stay out of the page, as in Vite (they may be secrets).
import type { PreviewFiles } from "./module-resolution";
import { joinPath } from "./preview-paths";

/** The variables of one .env file (KEY=VALUE, `export KEY=…`, quotes, # comments, ${VAR} left as written). */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const line = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*("(?:\\.|[^"\\])*"|'[^']*'|`[^`]*`|[^\n#]*?)\s*(?:#.*)?$/gm;
  for (const match of text.replace(/\r\n?/g, "\n").matchAll(line)) {
    let value = match[2]!;
    const quote = value[0];
    if (quote === '"' || quote === "'" || quote === "`") {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, "\n").replace(/\\(["\\])/g, "$1");
    }
    out[match[1]!] = value;
  }
  return out;
}

/** The .env files Vite reads for `mode`, in the order they apply. */
export function envFileNames(mode: string): string[] {
  return [".env", ".env.local", `.env.${mode}`, `.env.${mode}.local`];
}

/** import.meta.env from the .env files' texts (in envFileNames order; undefined: no such file). */
export function viteEnv(texts: Array<string | undefined>, mode = "development"): Record<string, string | boolean> {
  const vars: Record<string, string> = {};
  for (const text of texts) if (text !== undefined) Object.assign(vars, parseDotenv(text));
  const exposed = Object.fromEntries(Object.entries(vars).filter(([name]) => name.startsWith("VITE_")));
  return { ...exposed, BASE_URL: "/", MODE: mode, DEV: mode !== "production", PROD: mode === "production", SSR: false };
}

/** import.meta.env of the site served from folder `root`. */
export async function loadViteEnv(files: PreviewFiles, root: string, mode = "development"): Promise<Record<string, string | boolean>> {
  const texts = await Promise.all(
    envFileNames(mode).map(async (name) => {
      const path = joinPath(root, name);
      return path !== undefined && (await files.stat(path))?.kind === "file" ? files.readText(path) : undefined;
    }),
  );
  return viteEnv(texts, mode);
}
