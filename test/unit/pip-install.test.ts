// pip against a fake package index on 127.0.0.1: dependencies resolved through wheels' METADATA
// (markers, extras, pre-releases left out), files with RECORD/INSTALLER in .venv's site-packages,
// list/show/freeze/uninstall, python3 importing what was installed, and failures (native-only,
// sdist-only, 404, hash mismatch, corrupt wheel, offline) that leave site-packages as it was.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { openStorage } from "../../src/storage";
import { runPip, SITE_PACKAGES, type IndexFetch } from "../../src/runtime/pip";
import { startFakeIndex, type FakeIndex } from "../support/fake-index";
import { runPythonInProcess } from "../support/run-python";

let index: FakeIndex;
let counter = 0;
const disposers: Array<() => void> = [];

beforeAll(async () => {
  index = await startFakeIndex();
});
afterAll(async () => {
  await index.close();
});
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
  index.missing.clear();
  index.tampered.clear();
  index.corrupt.clear();
  index.requests.length = 0;
});

async function open(config = true) {
  const storage = await openStorage({ name: `pip-install-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  if (config) await files.writeFile("pip.conf", `[global]\nindex-url = ${index.url}\n`);
  disposers.push(() => files.dispose());
  const pip = (args: string[], options: { env?: Record<string, string>; fetch?: IndexFetch; cwd?: string } = {}) =>
    runPip(args, { files, source: "terminal", cwd: options.cwd ?? "/workspace", env: new Map(Object.entries(options.env ?? {})), fetch: options.fetch ?? ((input, init) => fetch(input, init)) });
  return { files, pip };
}

function tree(files: WorkspaceFiles): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    if (files.statSync(dir)?.kind !== "dir") return;
    for (const entry of files.listSync(dir)) {
      if (entry.kind === "dir") walk(entry.path);
      else {
        const data = files.readSync(entry.path);
        out[entry.path] = typeof data === "string" ? data : new TextDecoder().decode(data);
      }
    }
  };
  walk(".venv");
  return out;
}

describe("pip install in the browser runtime", () => {
  it("resolves a tree with an extra, skips marker-excluded and pre-release versions, writes RECORD and INSTALLER; list, show, freeze", async () => {
    const { files, pip } = await open();
    const result = await pip(["install", "app-pkg[fast]"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`Looking in indexes: ${index.url}`);
    expect(result.stdout).toContain("Collecting app-pkg[fast]");
    expect(result.stdout).toMatch(/Downloaded helper-2\.1\.0-py3-none-any\.whl \(\d/);
    expect(result.stdout).toContain("Successfully installed app-pkg-1.0.0 helper-2.1.0 speedups-1.4 tiny-dep-0.2\n");
    // The index was asked in PEP 691's JSON form; the marker-skipped projects were never asked for.
    expect(index.requests.find((r) => r.path === "/simple/app-pkg/")?.accept).toContain("application/vnd.pypi.simple.v1+json");
    expect(index.requests.map((r) => r.path)).not.toContain("/simple/win-only/");
    expect(index.requests.map((r) => r.path)).not.toContain("/simple/old-only/");
    const site = tree(files);
    expect(site[`${SITE_PACKAGES}/tiny_dep.py`]).toContain("def mark");
    expect(site[`${SITE_PACKAGES}/helper-2.1.0.dist-info/INSTALLER`]).toBe("webcode-pip\n");
    expect(site[`${SITE_PACKAGES}/helper-2.1.0.dist-info/RECORD`]).toBe(
      "helper/__init__.py,,\nhelper-2.1.0.dist-info/METADATA,,\nhelper-2.1.0.dist-info/WHEEL,,\nhelper-2.1.0.dist-info/INSTALLER,,\nhelper-2.1.0.dist-info/RECORD,,\n",
    );

    expect((await pip(["list"])).stdout).toBe("Package  Version\n-------- -------\napp-pkg  1.0.0\nhelper   2.1.0\nspeedups 1.4\ntiny-dep 0.2\n");
    expect((await pip(["freeze"])).stdout).toBe("app-pkg==1.0.0\nhelper==2.1.0\nspeedups==1.4\ntiny-dep==0.2\n");
    const show = await pip(["show", "helper"]);
    expect(show.stdout).toContain("Name: helper\nVersion: 2.1.0\nSummary: helper fixture\n");
    expect(show.stdout).toContain(`Location: /workspace/${SITE_PACKAGES}\nRequires: Tiny_Dep\nRequired-by: app-pkg\n`);
    expect(await pip(["show", "nope"])).toMatchObject({ exitCode: 1, stderr: "WARNING: Package(s) not found: nope\n" });

    const again = await pip(["install", "app-pkg"]);
    expect(again.stdout).toContain(`Requirement already satisfied: app-pkg in ./${SITE_PACKAGES} (1.0.0)`);
    expect(again.stdout).not.toContain("Successfully installed");
  });

  it("python3 imports what pip installed (site-packages on sys.path)", async () => {
    const { files, pip } = await open();
    expect((await pip(["install", "app-pkg"])).exitCode).toBe(0);
    const run = await runPythonInProcess(["-c", "import app_pkg, sys; print(app_pkg.VALUE); print([p for p in sys.path if 'site-packages' in p and '.venv' in p])"], tree(files));
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(`<APP>\n['/workspace/${SITE_PACKAGES}']\n`);
  }, 120_000);

  it("uninstall removes a package's files by its RECORD and leaves the others; a missing one is skipped with a warning", async () => {
    const { files, pip } = await open();
    await pip(["install", "app-pkg"]);
    const result = await pip(["uninstall", "-y", "helper", "ghost"]);
    expect(result.stdout).toBe("Found existing installation: helper 2.1.0\nUninstalling helper-2.1.0:\n  Successfully uninstalled helper-2.1.0\nWARNING: Skipping ghost as it is not installed.\n");
    const site = Object.keys(tree(files));
    expect(site.filter((path) => path.includes("helper"))).toEqual([]);
    expect(files.statSync(`${SITE_PACKAGES}/helper`)).toBeUndefined();
    expect(site).toContain(`${SITE_PACKAGES}/tiny_dep.py`);
    expect((await pip(["freeze"])).stdout).toBe("app-pkg==1.0.0\ntiny-dep==0.2\n");
  });

  it("installs from a requirements file (with -r of another, comments, specifiers) and from PIP_INDEX_URL; upgrades replace the old version", async () => {
    const { files, pip } = await open(false);
    await files.writeFile("app/requirements.txt", "# pinned\nhelper==1.0.0  # old one\n-r more.txt\n");
    await files.writeFile("app/more.txt", "speedups>=1,<2\n");
    const result = await pip(["install", "-r", "requirements.txt"], { env: { PIP_INDEX_URL: index.url }, cwd: "/workspace/app" });
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("Successfully installed helper-1.0.0 speedups-1.4\n");
    const upgrade = await pip(["install", "-U", "helper"], { env: { PIP_INDEX_URL: index.url } });
    expect(upgrade.stdout).toContain("Found existing installation: helper 1.0.0");
    expect(upgrade.stdout).toContain("Successfully installed helper-2.1.0 tiny-dep-0.2\n");
    expect(files.statSync(`${SITE_PACKAGES}/helper-1.0.0.dist-info`)).toBeUndefined();
    expect((await pip(["install", "--pre", "helper==3.0.0rc1"], { env: { PIP_INDEX_URL: index.url } })).stdout).toContain("Successfully installed helper-3.0.0rc1");
  });

  it("says clearly when a package needs native code or has only an sdist, and when nothing matches", async () => {
    const { files, pip } = await open();
    const native = await pip(["install", "native-pkg"]);
    expect(native.exitCode).toBe(1);
    expect(native.stderr).toMatch(/^ERROR: native-pkg 1\.0 has only platform-specific wheels \(native_pkg-1\.0-cp314-cp314-manylinux_2_17_x86_64\.whl\): it contains native code.*not available as a pure-Python wheel\.\n$/);
    const sdist = await pip(["install", "sdist-pkg"]);
    expect(sdist.stderr).toMatch(/sdist-pkg 0\.5 is only published as a source distribution.*not available as a pure-Python wheel/);
    const none = await pip(["install", "helper>=9"]);
    expect(none.stderr).toBe("ERROR: No matching distribution found for helper>=9 (versions in the index: 1.0.0, 2.1.0, 3.0.0rc1).\n");
    expect(tree(files)).toEqual({});
  });

  it("a 404, a hash mismatch, a corrupt wheel and an offline index leave site-packages exactly as it was", async () => {
    const { files, pip } = await open();
    await pip(["install", "speedups==1.4"]);
    const before = tree(files);
    expect(Object.keys(before).length).toBeGreaterThan(0);

    const missing = await pip(["install", "app-pkg", "no-such-project"]);
    expect(missing).toMatchObject({ exitCode: 1 });
    expect(missing.stderr).toContain("ERROR: No matching distribution found for no-such-project: the index");
    expect(tree(files)).toEqual(before);

    index.tampered.add("tiny_dep-0.2-py3-none-any.whl");
    const tampered = await pip(["install", "app-pkg"]);
    expect(tampered.stderr).toMatch(/THESE PACKAGES DO NOT MATCH THE HASHES FROM THE INDEX: tiny_dep-0\.2-py3-none-any\.whl should have sha256 [0-9a-f]{64} but has [0-9a-f]{64}/);
    expect(tree(files)).toEqual(before);
    index.tampered.clear();

    index.corrupt.add("helper-2.1.0-py3-none-any.whl");
    const corrupt = await pip(["install", "app-pkg"]);
    expect(corrupt.stderr).toMatch(/^ERROR: helper-2\.1\.0-py3-none-any\.whl is not a readable wheel \(zip\)/);
    expect(tree(files)).toEqual(before);

    const offline = await pip(["install", "app-pkg"], { fetch: () => Promise.reject(new TypeError("Failed to fetch")) });
    expect(offline.stderr).toContain("the network is offline or the index refused a request from this page (CORS)");
    expect(tree(files)).toEqual(before);
  });

  it("--version, help, and an unknown command", async () => {
    const { pip } = await open();
    expect((await pip(["--version"])).stdout).toMatch(/^pip \S+ from \/workspace\/\.venv\/lib\/python3\.\d+\/site-packages \(python 3\.\d+\)\n$/);
    expect((await pip([])).stdout).toContain("pip install -r requirements.txt");
    expect(await pip(["wheel"])).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('unknown command "wheel"') });
  });
});
