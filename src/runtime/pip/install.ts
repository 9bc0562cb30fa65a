// pip install and uninstall in the browser runtime. Resolution picks, for each requirement, the
// newest version with a pure-Python wheel that fits every specifier met so far (no backtracking:
// a later conflict is reported, not solved), reading dependencies from each wheel's METADATA.
// Everything that can fail (index, download, sha256, unzip) happens in memory first; only a
// complete plan is written, in one synchronous pass through the workspace file service and one
// flush, so a failed install leaves site-packages as it was.
import { compare, explain, satisfies, valid } from "@renovatebot/pep440";
import { validatePath } from "../../base";
import type { ChangeSource } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { PipError, type IndexClient, type IndexFile } from "./index-client";
import { PYTHON_FULL_VERSION, applies, normalizeName, parseRequirement, type Requirement } from "./requirement";
import { installedDists, isPureWheel, parseWheelName, recordPaths, recordText, unpackWheel, type Installed, type WheelContents } from "./wheel";

export const INSTALLER = "webcode-pip";

export interface Site {
  files: WorkspaceFiles;
  source: ChangeSource;
  /** Workspace path of site-packages (".venv/lib/python3.14/site-packages"). */
  dir: string;
}

export interface InstallOptions {
  upgrade?: boolean;
  noDeps?: boolean;
  pre?: boolean;
  out: (text: string) => void;
}

interface Chosen {
  name: string;
  version: string;
  extras: Set<string>;
  specifiers: string[];
  /** Undefined when the installed copy already satisfies. */
  file?: IndexFile;
  contents?: WheelContents;
  requires: Requirement[];
}

export function readInstalled(site: Site): Map<string, Installed> {
  const { files } = site;
  return installedDists(
    (dir) => (files.statSync(dir)?.kind === "dir" ? files.listSync(dir).map((entry) => entry.path.slice(entry.path.lastIndexOf("/") + 1)) : []),
    (path) => (files.statSync(path)?.kind === "file" ? text(files.readSync(path)) : undefined),
    site.dir,
  );
}

function text(data: string | Uint8Array): string {
  return typeof data === "string" ? data : new TextDecoder().decode(data);
}

function requiresOf(metadata: Map<string, string[]>, what: string): Requirement[] {
  return (metadata.get("requires-dist") ?? []).map((line) => {
    try {
      return parseRequirement(line);
    } catch (error) {
      throw new PipError(`${what} declares a dependency that cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

const fits = (version: string, specifiers: string[], pre: boolean) =>
  specifiers.every((specifier) => specifier === "" || satisfies(version, specifier, { prereleases: pre }));

function isPre(version: string): boolean {
  return explain(version)?.is_prerelease === true;
}

/** Resolves, downloads and writes; returns what was installed ("name-version"). */
export async function install(roots: Requirement[], site: Site, client: IndexClient, options: InstallOptions): Promise<string[]> {
  const installed = readInstalled(site);
  const chosen = new Map<string, Chosen>();
  const queue: Array<{ requirement: Requirement; extras: string[]; root: boolean }> = roots.map((requirement) => ({ requirement, extras: [], root: true }));
  while (queue.length > 0) {
    const { requirement, extras, root } = queue.shift()!;
    if (!applies(requirement, extras)) {
      if (root) options.out(`Ignoring ${requirement.name}: markers '${requirement.text.split(";").slice(1).join(";").trim()}' don't match your environment\n`);
      continue;
    }
    const key = normalizeName(requirement.name);
    // As pip: a specifier that names a pre-release allows pre-releases.
    const pre = options.pre === true || requirement.specifier.split(",").some((part) => isPre(part.replace(/^[~=!<>]+/, "")));
    const existing = chosen.get(key);
    if (existing) {
      if (!fits(existing.version, [requirement.specifier], true)) {
        throw new PipError(
          `Cannot install ${existing.name}: ${requirement.text} is required, but ${existing.name} ${existing.version} was already chosen for ${existing.specifiers.filter((s) => s !== "").join(", ") || "another requirement"}. The conflict cannot be resolved here; pin compatible versions.`,
        );
      }
      existing.specifiers.push(requirement.specifier);
      const added = requirement.extras.filter((extra) => !existing.extras.has(normalizeName(extra)));
      for (const extra of added) existing.extras.add(normalizeName(extra));
      if (added.length > 0 && !options.noDeps) for (const dep of existing.requires) queue.push({ requirement: dep, extras: added.map(normalizeName), root: false });
      continue;
    }
    const present = installed.get(key);
    const extrasWanted = requirement.extras.map(normalizeName);
    if (present && (!root || !options.upgrade) && fits(present.version, [requirement.specifier], true)) {
      options.out(`Requirement already satisfied: ${requirement.text.split(";")[0]!.trim()} in ./${site.dir} (${present.version})\n`);
      const requires = requiresOf(present.metadata, `${present.name} ${present.version}`);
      chosen.set(key, { name: present.name, version: present.version, extras: new Set(extrasWanted), specifiers: [requirement.specifier], requires });
      if (!options.noDeps) for (const dep of requires) queue.push({ requirement: dep, extras: extrasWanted, root: false });
      continue;
    }
    options.out(`Collecting ${requirement.text.split(";")[0]!.trim()}\n`);
    const file = pickWheel(requirement, await client.files(requirement.name), pre);
    const bytes = await client.download(file.file);
    options.out(`  Downloaded ${file.file.filename} (${kilobytes(bytes.length)})\n`);
    const contents = unpackWheel(bytes, file.file.filename);
    const version = contents.metadata.get("version")?.[0] ?? file.version;
    const name = contents.metadata.get("name")?.[0] ?? requirement.name;
    const requiresPython = contents.metadata.get("requires-python")?.[0];
    if (requiresPython && !satisfies(PYTHON_FULL_VERSION, requiresPython)) {
      throw new PipError(`${name} ${version} requires Python ${requiresPython}; this page runs Python ${PYTHON_FULL_VERSION}.`);
    }
    const requires = requiresOf(contents.metadata, `${name} ${version}`);
    chosen.set(key, { name, version, extras: new Set(extrasWanted), specifiers: [requirement.specifier], file: file.file, contents, requires });
    if (!options.noDeps) for (const dep of requires) queue.push({ requirement: dep, extras: extrasWanted, root: false });
  }
  const toInstall = [...chosen.values()].filter((entry) => entry.contents);
  if (toInstall.length === 0) return [];
  options.out(`Installing collected packages: ${toInstall.map((entry) => entry.name).join(", ")}\n`);
  apply(site, toInstall, installed, options);
  await flush(site);
  const done = toInstall.map((entry) => `${entry.name}-${entry.version}`);
  options.out(`Successfully installed ${done.join(" ")}\n`);
  return done;
}

function pickWheel(requirement: Requirement, files: IndexFile[], pre: boolean): { file: IndexFile; version: string } {
  const byVersion = new Map<string, { pure?: IndexFile; platform: string[]; sdist: boolean }>();
  for (const file of files) {
    if (file.yanked) continue;
    if (file.requiresPython && valid(PYTHON_FULL_VERSION) && !safeSatisfies(PYTHON_FULL_VERSION, file.requiresPython)) continue;
    const wheel = parseWheelName(file.filename);
    const version = wheel?.version ?? /-(\d[^-]*?)\.(tar\.gz|zip|tar\.bz2)$/.exec(file.filename)?.[1];
    if (!version || !valid(version)) continue;
    const entry = byVersion.get(version) ?? { platform: [], sdist: false };
    if (!wheel) entry.sdist = true;
    else if (isPureWheel(wheel)) entry.pure ??= file;
    else entry.platform.push(file.filename);
    byVersion.set(version, entry);
  }
  const matching = [...byVersion.keys()].filter((version) => fits(version, [requirement.specifier], true)).sort((a, b) => compare(b, a));
  const stable = matching.filter((version) => !isPre(version));
  const candidates = pre || stable.length === 0 ? matching : stable;
  if (candidates.length === 0) {
    const all = [...byVersion.keys()].sort(compare);
    throw new PipError(
      `No matching distribution found for ${requirement.text.split(";")[0]!.trim()}${all.length > 0 ? ` (versions in the index: ${all.join(", ")})` : " (the index lists no files for it)"}.`,
    );
  }
  const best = candidates.find((version) => byVersion.get(version)!.pure);
  if (!best) {
    const newest = byVersion.get(candidates[0]!)!;
    const name = requirement.name;
    if (newest.platform.length > 0) {
      throw new PipError(
        `${name} ${candidates[0]} has only platform-specific wheels (${newest.platform.slice(0, 2).join(", ")}${newest.platform.length > 2 ? ", …" : ""}): it contains native code, which the browser runtime's Python cannot load. It is not available as a pure-Python wheel.`,
      );
    }
    throw new PipError(`${name} ${candidates[0]} is only published as a source distribution; building it needs a compiler, which the browser runtime does not have. It is not available as a pure-Python wheel.`);
  }
  return { file: byVersion.get(best)!.pure!, version: best };
}

function kilobytes(size: number): string {
  return size < 1000 ? `${size} bytes` : `${(size / 1000).toFixed(1)} kB`;
}

function safeSatisfies(version: string, specifier: string): boolean {
  try {
    return satisfies(version, specifier);
  } catch {
    return true;
  }
}

/** Writes the plan in one synchronous pass (batched). */
function apply(site: Site, entries: Chosen[], installed: Map<string, Installed>, options: InstallOptions): void {
  const writes: Array<[string, Uint8Array | string]> = [];
  for (const entry of entries) {
    const contents = entry.contents!;
    const placed: string[] = [];
    for (const file of contents.files) {
      if (file.path === `${contents.distInfo}/RECORD` || file.path === `${contents.distInfo}/INSTALLER`) continue;
      let path: string;
      try {
        path = validatePath(`${site.dir}/${file.path}`);
      } catch {
        throw new PipError(`${entry.name} ${entry.version} holds a file name the workspace cannot hold (${file.path}); nothing was installed.`);
      }
      writes.push([path, file.data]);
      placed.push(file.path);
    }
    placed.push(`${contents.distInfo}/INSTALLER`, `${contents.distInfo}/RECORD`);
    writes.push([`${site.dir}/${contents.distInfo}/INSTALLER`, `${INSTALLER}\n`]);
    writes.push([`${site.dir}/${contents.distInfo}/RECORD`, recordText(placed)]);
  }
  for (const entry of entries) {
    const old = installed.get(normalizeName(entry.name));
    if (!old) continue;
    options.out(`  Attempting uninstall: ${old.name}\n    Found existing installation: ${old.name} ${old.version}\n    Uninstalling ${old.name}-${old.version}:\n      Successfully uninstalled ${old.name}-${old.version}\n`);
    removeDist(site, old);
  }
  const write = { source: site.source, batched: true };
  for (const [path, data] of writes) site.files.writeSync(path, data, write);
}

/** Removes an installed distribution's files (from its RECORD) and the folders left empty. */
export function removeDist(site: Site, dist: Installed): void {
  const { files } = site;
  const options = { source: site.source, batched: true };
  const recordFile = `${site.dir}/${dist.distInfo}/RECORD`;
  const listed = files.statSync(recordFile)?.kind === "file" ? recordPaths(text(files.readSync(recordFile))) : [];
  const dirs = new Set<string>();
  for (const relative of listed) {
    let path: string;
    try {
      path = validatePath(`${site.dir}/${relative}`);
    } catch {
      continue;
    }
    // A RECORD is package data: only paths inside site-packages are removed.
    if (!path.startsWith(`${site.dir}/`)) continue;
    if (files.statSync(path)?.kind === "file") files.removeSync(path, options);
    for (let dir = path.slice(0, path.lastIndexOf("/")); dir.length > site.dir.length; dir = dir.slice(0, dir.lastIndexOf("/"))) dirs.add(dir);
  }
  // Compiled files Python wrote beside the package (__pycache__) go with it.
  for (const dir of dirs) if (dir.endsWith("/__pycache__") && files.statSync(dir)?.kind === "dir") files.removeSync(dir, options);
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
    if (files.statSync(dir)?.kind === "dir" && files.listSync(dir).length === 0) files.removeSync(dir, options);
  }
  const distDir = `${site.dir}/${dist.distInfo}`;
  if (files.statSync(distDir)) files.removeSync(distDir, options);
}

export async function flush(site: Site): Promise<void> {
  await site.files.flush().catch((error: unknown) => {
    throw new PipError(`The installed files could not be stored (${error instanceof Error ? error.message : String(error)}).`);
  });
}
