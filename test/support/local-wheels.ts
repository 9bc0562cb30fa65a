// Wheels built from packages installed on this machine (no network): each distribution's files as
// its RECORD lists them, zipped with fflate. Used to test `python3 -m pytest` with the real pytest
// when the machine's python3 has it (tests that need it are skipped with a message otherwise).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";

/** The site-packages folder of the machine's python3 that holds `module`, or undefined. */
export function localSitePackages(module: string): string | undefined {
  try {
    const file = execFileSync("python3", ["-c", `import ${module}, os; print(os.path.dirname(os.path.dirname(${module}.__file__)))`], { encoding: "utf8", timeout: 20_000 });
    return file.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A wheel (filename, bytes) of an installed pure-Python distribution, or undefined when it is not installed as one. */
export function wheelFromInstalled(site: string, name: string): { filename: string; bytes: Uint8Array } | undefined {
  const distInfo = readdirSync(site).find((entry) => entry.endsWith(".dist-info") && entry.toLowerCase().startsWith(`${name.toLowerCase().replace(/-/g, "_")}-`));
  if (!distInfo) return undefined;
  const wheelText = readFileSync(join(site, distInfo, "WHEEL"), "utf8");
  const tag = /^Tag: (\S+)$/m.exec(wheelText)?.[1];
  if (!tag || !tag.endsWith("-none-any")) return undefined;
  const entries: Record<string, Uint8Array> = {};
  for (const line of readFileSync(join(site, distInfo, "RECORD"), "utf8").split("\n")) {
    const path = line.split(",")[0]!;
    if (!path || path.startsWith("..") || path.includes("__pycache__") || path.endsWith("/INSTALLER") || path.endsWith("/REQUESTED") || path.endsWith("/direct_url.json")) continue;
    if (existsSync(join(site, path))) entries[path] = new Uint8Array(readFileSync(join(site, path)));
  }
  return { filename: `${distInfo.slice(0, -".dist-info".length)}-${tag}.whl`, bytes: zipSync(entries) };
}
