// A workspace for the preview's unit tests: files in a Map, and packages copied from this
// repository's node_modules (react, react-dom) on request, read from disk as they are asked for.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { PreviewFiles } from "../../src/runtime/preview";

export class MapPreviewFiles implements PreviewFiles {
  readonly files = new Map<string, Uint8Array>();
  reads = 0;

  constructor(
    initial: Record<string, string | Uint8Array> = {},
    /** Packages served from this repository's node_modules under the workspace's node_modules/. */
    private readonly linkedPackages: string[] = [],
  ) {
    for (const [name, content] of Object.entries(initial)) this.write(name, content);
  }

  write(name: string, content: string | Uint8Array): void {
    this.files.set(name, typeof content === "string" ? new TextEncoder().encode(content) : content);
  }

  private linked(p: string): string | undefined {
    const pkg = this.linkedPackages.find((name) => p === `node_modules/${name}` || p.startsWith(`node_modules/${name}/`));
    return pkg ? path.resolve(p) : undefined;
  }

  async stat(p: string): Promise<{ kind: "file" | "dir" } | undefined> {
    if (this.files.has(p)) return { kind: "file" };
    const disk = this.linked(p);
    if (disk) {
      try {
        return { kind: statSync(disk).isDirectory() ? "dir" : "file" };
      } catch {
        return undefined;
      }
    }
    const prefix = p === "" ? "" : `${p}/`;
    if (p === "" || [...this.files.keys()].some((k) => k.startsWith(prefix))) return { kind: "dir" };
    if (p === "node_modules" && this.linkedPackages.length > 0) return { kind: "dir" };
    return undefined;
  }

  async readFile(p: string): Promise<Uint8Array> {
    this.reads++;
    const data = this.files.get(p);
    if (data) return data;
    const disk = this.linked(p);
    if (disk) return new Uint8Array(readFileSync(disk));
    throw new Error(`ENOENT: ${p}`);
  }

  async list(dir: string): Promise<Array<{ path: string; kind: "file" | "dir" }>> {
    const prefix = dir === "" ? "" : `${dir}/`;
    const names = new Map<string, "file" | "dir">();
    for (const key of this.files.keys()) {
      if (!key.startsWith(prefix)) continue;
      const [name, ...rest] = key.slice(prefix.length).split("/");
      names.set(`${prefix}${name}`, rest.length > 0 ? "dir" : "file");
    }
    return [...names].map(([path, kind]) => ({ path, kind }));
  }

  async readText(p: string): Promise<string> {
    return new TextDecoder().decode(await this.readFile(p));
  }
}
