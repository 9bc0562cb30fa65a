// Which container paths are never brought back into the workspace (and so never into IndexedDB):
// dependencies, build output and caches. The user edits the list per workspace in the file
// SYNC_EXCLUDE_FILE; node_modules is always excluded.

/** The workspace file that adds to (or, with "!name", removes from) the default exclusions. */
export const SYNC_EXCLUDE_FILE = ".webcode/sync-exclude";

/** Always excluded, whatever the list says: it can hold hundreds of thousands of files. */
const ALWAYS_EXCLUDED = "node_modules";

/** Build output and caches of the common tools; folder names matched at any depth. */
export const DEFAULT_SYNC_EXCLUDES: readonly string[] = [
  ALWAYS_EXCLUDED,
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".output",
  ".angular",
  ".turbo",
  ".cache",
  ".parcel-cache",
  ".vite",
  ".vercel",
  ".netlify",
  ".docusaurus",
  "dist",
  "build",
  "coverage",
  ".nyc_output",
  "__pycache__",
];

export const SYNC_EXCLUDE_TEMPLATE = `# Folders that commands create in WebContainer but that are not brought back into this
# workspace (nor saved in the browser). One per line: a name matches a folder at any depth
# ("dist"), a path with "/" matches from the workspace root ("docs/build").
# "!name" brings back a folder excluded by default (e.g. "!build"). node_modules always stays out.
# Defaults: ${DEFAULT_SYNC_EXCLUDES.join(", ")}
`;

export class SyncExclusions {
  private readonly names: Set<string>;
  private readonly prefixes: string[];

  constructor(extra: readonly string[] = []) {
    const names = new Set(DEFAULT_SYNC_EXCLUDES);
    const prefixes: string[] = [];
    for (const raw of extra) {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) continue;
      const negated = line.startsWith("!");
      const entry = line.slice(negated ? 1 : 0).trim().replace(/^\.?\/+/, "").replace(/\/+$/, "");
      if (entry === "" || entry === ALWAYS_EXCLUDED) continue;
      if (entry.includes("/")) {
        if (!negated) prefixes.push(entry);
      } else if (negated) names.delete(entry);
      else names.add(entry);
    }
    this.names = names;
    this.prefixes = prefixes;
  }

  /** Parses the text of SYNC_EXCLUDE_FILE. */
  static fromText(text: string): SyncExclusions {
    return new SyncExclusions(text.split(/\r?\n/));
  }

  /** True for a workspace path inside an excluded folder (or that folder itself). Cheap: called per watch event. */
  excludes(path: string): boolean {
    let start = 0;
    for (;;) {
      const end = path.indexOf("/", start);
      if (this.names.has(end < 0 ? path.slice(start) : path.slice(start, end))) return true;
      if (end < 0) break;
      start = end + 1;
    }
    for (const prefix of this.prefixes) if (path === prefix || path.startsWith(prefix + "/")) return true;
    return false;
  }
}
