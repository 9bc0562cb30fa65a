// What every git subcommand works with: isomorphic-git, the repository's folder inside the
// workspace, the shell's working folder, output buffers, identity and time, and the remote settings.
import "./buffer-global";
import git from "isomorphic-git";
import type { GitFs } from "./git-fs";
import type { GatedFetch } from "../../egress";
import { normalizeAbsolute } from "../workspace-bash-fs";

/** POSIX-style absolute path normalisation, as the shell's file system does it. */
export const resolve = normalizeAbsolute;

export { git };

/** Settings → Runtime: how git reaches remotes from a web page. */
export interface GitRemoteSettings {
  /** CORS proxy URL prefix ("" = none: clone/fetch/pull/push say how to set one). */
  corsProxy: string;
  /** Access token sent as the password over HTTPS ("" = none), only to `tokenHost`. */
  token: string;
  /** The host the token belongs to ("github.com"). */
  tokenHost: string;
}

/** Where `git config --global` is kept (the text of a .gitconfig file). */
export interface GlobalConfigStore {
  read(): Promise<string>;
  write(text: string): Promise<void>;
}

export interface GitEnvironment {
  globalConfig: GlobalConfigStore;
  fs: GitFs;
  fetch: GatedFetch;
  remoteSettings: () => Promise<GitRemoteSettings>;
  /** Milliseconds since the epoch (commit and tag times). */
  now: () => number;
}

export class GitUsageError extends Error {
  constructor(
    message: string,
    readonly exitCode = 129,
  ) {
    super(message);
  }
}

/** Fails the command like git's `fatal:` (exit 128). */
export class GitFatal extends Error {
  constructor(
    message: string,
    readonly exitCode = 128,
  ) {
    super(message);
  }
}

export class GitContext {
  stdout = "";
  stderr = "";

  constructor(
    readonly env: GitEnvironment,
    /** The repository's work-tree root as an absolute workspace path ("/" or "/sub"), or undefined outside a repository. */
    readonly root: string | undefined,
    /** The shell's working folder as an absolute workspace path. */
    readonly cwd: string,
    readonly vars: Record<string, string>,
    readonly signal?: AbortSignal,
  ) {}

  get fs(): GitFs {
    return this.env.fs;
  }

  /** The repository root; fails like git outside one. */
  get dir(): string {
    if (this.root === undefined) throw new GitFatal("not a git repository (or any of the parent directories): .git");
    return this.root;
  }

  out(text: string): void {
    this.stdout += text;
  }

  err(text: string): void {
    this.stderr += text;
  }

  /** Repository path of a command-line path (relative to the working folder); "" for the root. */
  repoPath(arg: string): string {
    const absolute = resolve(arg.startsWith("/") ? arg : `${this.cwd}/${arg}`);
    const root = this.dir;
    if (absolute === root) return "";
    const prefix = root === "/" ? "/" : `${root}/`;
    if (!absolute.startsWith(prefix)) throw new GitFatal(`${arg}: '${arg}' is outside repository at '${root}'`);
    return absolute.slice(prefix.length);
  }

  /** How git shows a repository path to the user: relative to the working folder. */
  shown(path: string): string {
    const root = this.dir;
    const absolute = root === "/" ? `/${path}` : `${root}/${path}`;
    return relative(this.cwd, absolute);
  }

  /** user.name / user.email from the environment (GIT_AUTHOR_*) or the repository's config. */
  async identity(kind: "AUTHOR" | "COMMITTER"): Promise<{ name: string; email: string; timestamp: number; timezoneOffset: number }> {
    const name = this.vars[`GIT_${kind}_NAME`] ?? ((await git.getConfig({ fs: this.fs, dir: this.dir, path: "user.name" })) as string | undefined);
    const email = this.vars[`GIT_${kind}_EMAIL`] ?? ((await git.getConfig({ fs: this.fs, dir: this.dir, path: "user.email" })) as string | undefined);
    if (!name || !email) {
      throw new GitFatal(
        [
          "Author identity unknown",
          "",
          "*** Please tell me who you are.",
          "",
          "Run",
          "",
          '  git config user.email "you@example.com"',
          '  git config user.name "Your Name"',
          "",
          "to set your account's identity for this repository.",
          "",
          "fatal: unable to auto-detect email address",
        ].join("\n"),
      );
    }
    const date = parseGitDate(this.vars[`GIT_${kind}_DATE`]);
    return {
      name,
      email,
      timestamp: date?.timestamp ?? Math.floor(this.env.now() / 1000),
      timezoneOffset: date?.timezoneOffset ?? 0,
    };
  }

  async headOid(): Promise<string | undefined> {
    try {
      return await git.resolveRef({ fs: this.fs, dir: this.dir, ref: "HEAD" });
    } catch {
      return undefined;
    }
  }

  async branch(): Promise<string | undefined> {
    return (await git.currentBranch({ fs: this.fs, dir: this.dir, fullname: false })) ?? undefined;
  }

  /** A commit-ish (branch, tag, abbreviated id, HEAD~N, HEAD^) as a commit id. */
  async resolveCommit(spec: string): Promise<string> {
    const match = /^(.*?)((?:[~^]\d*)*)$/.exec(spec)!;
    const base = match[1] || "HEAD";
    let oid = await this.resolveBase(base, spec);
    for (const step of match[2]!.match(/[~^]\d*/g) ?? []) {
      const count = step.length > 1 ? Number(step.slice(1)) : 1;
      if (step[0] === "~") {
        for (let i = 0; i < count; i++) oid = await this.parent(oid, 0, spec);
      } else if (count > 0) oid = await this.parent(oid, count - 1, spec);
    }
    return oid;
  }

  private async parent(oid: string, index: number, spec: string): Promise<string> {
    const { commit } = await git.readCommit({ fs: this.fs, dir: this.dir, oid });
    const parent = commit.parent[index];
    if (!parent) throw new GitFatal(`ambiguous argument '${spec}': unknown revision or path not in the working tree.`);
    return parent;
  }

  private async resolveBase(base: string, spec: string): Promise<string> {
    try {
      const oid = await git.resolveRef({ fs: this.fs, dir: this.dir, ref: base });
      return await this.peel(oid);
    } catch {
      // not a ref: an abbreviated object id?
    }
    if (/^[0-9a-f]{4,40}$/i.test(base)) {
      try {
        return await this.peel(await git.expandOid({ fs: this.fs, dir: this.dir, oid: base.toLowerCase() }));
      } catch {
        // fall through
      }
    }
    throw new GitFatal(`ambiguous argument '${spec}': unknown revision or path not in the working tree.`);
  }

  /** An annotated tag's commit. */
  private async peel(oid: string): Promise<string> {
    const object = await git.readObject({ fs: this.fs, dir: this.dir, oid, format: "parsed" });
    if (object.type === "tag") return this.peel((object.object as { object: string }).object);
    return oid;
  }
}

/** "@1700000000 +0100", "1700000000 +0100" or an ISO date (GIT_AUTHOR_DATE). */
export function parseGitDate(value: string | undefined): { timestamp: number; timezoneOffset: number } | undefined {
  if (!value) return undefined;
  const raw = /^@?(\d+)(?:\s+([+-])(\d\d)(\d\d))?$/.exec(value.trim());
  if (raw) {
    const sign = raw[2] === "-" ? 1 : -1;
    const minutes = Number(raw[3] ?? 0) * 60 + Number(raw[4] ?? 0);
    // "+0000" is 0, not -0 (which isomorphic-git writes as "-0000", another commit id than git's).
    const offset = minutes === 0 ? 0 : sign * minutes;
    return { timestamp: Number(raw[1]), timezoneOffset: offset };
  }
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : { timestamp: Math.floor(parsed / 1000), timezoneOffset: 0 };
}

export function relative(from: string, to: string): string {
  const a = from.split("/").filter(Boolean);
  const b = to.split("/").filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => ".."), ...b.slice(i)].join("/") || ".";
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** git's default date format: "Mon Nov 23 19:26:18 2026 +0000", in the signature's own time zone. */
export function formatGitDate(timestamp: number, timezoneOffset: number): string {
  const local = new Date((timestamp - timezoneOffset * 60) * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  const offset = -timezoneOffset;
  const zone = `${offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offset) / 60))}${pad(Math.abs(offset) % 60)}`;
  return (
    `${DAYS[local.getUTCDay()]} ${MONTHS[local.getUTCMonth()]} ${local.getUTCDate()} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} ${local.getUTCFullYear()} ${zone}`
  );
}
