// The project folder an npm command works on, read and written through the workspace file service.
import { joinPath } from "../../base";
import type { ChangeSource } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { NpmError } from "./registry";
import type { ProjectManifest } from "./types";

export class Project {
  constructor(
    readonly files: WorkspaceFiles,
    /** Workspace path of the folder holding package.json ("" for the root). */
    readonly dir: string,
    readonly source: ChangeSource,
  ) {}

  /** The folder holding package.json nearest to `cwd` (a workspace path), or `cwd` itself when there is none. */
  static find(files: WorkspaceFiles, cwd: string, source: ChangeSource): Project {
    let at = cwd;
    for (;;) {
      if (files.statSync(joinPath(at, "package.json"))?.kind === "file") return new Project(files, at, source);
      if (at === "") return new Project(files, cwd, source);
      at = at.includes("/") ? at.slice(0, at.lastIndexOf("/")) : "";
    }
  }

  /** The workspace root as a project (its .npmrc applies to every project in it). */
  atRoot(): Project {
    return new Project(this.files, "", this.source);
  }

  path(relative: string): string {
    return joinPath(this.dir, relative);
  }

  /** Shell path of a project file ("/workspace/app/node_modules/.bin"). */
  shellPath(relative = ""): string {
    const path = this.path(relative);
    return path === "" ? "/workspace" : `/workspace/${path}`;
  }

  readText(relative: string): string | undefined {
    const path = this.path(relative);
    if (this.files.statSync(path)?.kind !== "file") return undefined;
    const data = this.files.readSync(path);
    return typeof data === "string" ? data : new TextDecoder().decode(data);
  }

  hasManifest(): boolean {
    return this.readText("package.json") !== undefined;
  }

  manifest(): ProjectManifest {
    const text = this.readText("package.json");
    if (text === undefined) throw new NpmError(`No package.json in ${this.shellPath()}. Create one (npm init is not available; write it or run npm install NAME).`, "ENOENT");
    try {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      return parsed as ProjectManifest;
    } catch (error) {
      throw new NpmError(`${this.shellPath("package.json")} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`, "EJSONPARSE");
    }
  }

  /** Package names and versions installed under node_modules, by location ("node_modules/a/node_modules/b"). */
  installed(): Map<string, { name: string; version: string }> {
    const found = new Map<string, { name: string; version: string }>();
    const visit = (dir: string) => {
      const nm = this.path(dir === "" ? "node_modules" : `${dir}/node_modules`);
      if (this.files.statSync(nm)?.kind !== "dir") return;
      for (const entry of this.files.listSync(nm)) {
        const name = entry.path.slice(entry.path.lastIndexOf("/") + 1);
        if (entry.kind !== "dir" || name.startsWith(".")) continue;
        const names = name.startsWith("@") ? this.files.listSync(entry.path).filter((e) => e.kind === "dir").map((e) => `${name}/${e.path.slice(e.path.lastIndexOf("/") + 1)}`) : [name];
        for (const pkg of names) {
          const location = dir === "" ? `node_modules/${pkg}` : `${dir}/node_modules/${pkg}`;
          let version = "";
          let realName = pkg;
          const text = this.readText(`${location}/package.json`);
          if (text !== undefined) {
            try {
              const parsed = JSON.parse(text) as { name?: unknown; version?: unknown };
              if (typeof parsed.version === "string") version = parsed.version;
              if (typeof parsed.name === "string") realName = parsed.name;
            } catch {
              // A broken package.json counts as not installed: it is replaced.
            }
          }
          found.set(location, { name: realName, version });
          visit(location);
        }
      }
    };
    visit("");
    return found;
  }
}
