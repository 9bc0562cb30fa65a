// `python3 -m pytest` after `pip install pytest`: the real pytest and its dependencies, built into
// wheels from the machine's own python3 install (no network) and served by the fake index; then
// run with Pyodide in this process. Test discovery, assertion rewriting and exit codes (0, 1).
// Skipped with a message when the machine's python3 has no pytest.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { openStorage } from "../../src/storage";
import { runPip } from "../../src/runtime/pip";
import { startFakeIndex, type FakeIndex } from "../support/fake-index";
import { localSitePackages, wheelFromInstalled } from "../support/local-wheels";
import { runPythonInProcess } from "../support/run-python";

const DISTRIBUTIONS = ["pytest", "pluggy", "iniconfig", "packaging", "pygments"];
const site = localSitePackages("pytest");
const wheels = site ? DISTRIBUTIONS.map((name) => wheelFromInstalled(site, name)) : [];
const available = wheels.length > 0 && wheels.every((wheel) => wheel !== undefined);
if (!available) console.warn("pip-pytest.test.ts skipped: the machine's python3 has no pure-Python install of pytest, pluggy, iniconfig, packaging and pygments to build wheels from.");

let index: FakeIndex;
beforeAll(async () => {
  index = await startFakeIndex([]);
  for (const wheel of wheels) if (wheel) index.addWheel(wheel.filename, wheel.bytes);
});
afterAll(async () => {
  await index.close();
});

function tree(files: WorkspaceFiles): Record<string, string | Uint8Array> {
  const out: Record<string, string | Uint8Array> = {};
  const walk = (dir: string) => {
    for (const entry of files.listSync(dir)) {
      if (entry.kind === "dir") walk(entry.path);
      else out[entry.path] = files.readSync(entry.path);
    }
  };
  walk("");
  return out;
}

describe.runIf(available)("python3 -m pytest after pip install pytest", () => {
  it("installs pytest with its dependencies, discovers tests, rewrites assertions, exits 0 on pass and 1 on failure", async () => {
    const storage = await openStorage({ name: `pip-pytest-${Date.now()}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    try {
      const install = await runPip(["install", "pytest"], { files, source: "terminal", cwd: "/workspace", env: new Map([["PIP_INDEX_URL", index.url]]), fetch: (input, init) => fetch(input, init) });
      expect(install.stderr).toBe("");
      expect(install.stdout).toMatch(/Successfully installed .*pytest-\d/);
      for (const name of ["pluggy", "iniconfig", "packaging", "pygments"]) expect(install.stdout.toLowerCase()).toContain(`${name}-`);
      await files.writeFile("calc.py", "def add(a, b):\n    return a + b\n");
      await files.writeFile("tests/test_calc.py", "from calc import add\n\ndef test_add():\n    assert add(2, 2) == 4\n\ndef test_more():\n    assert add(1, 1) == 2\n");
      const pass = await runPythonInProcess(["-m", "pytest"], tree(files));
      expect(pass.stdout).toContain("tests/test_calc.py ..");
      expect(pass.stdout).toMatch(/2 passed/);
      expect(pass.exitCode).toBe(0);

      await files.writeFile("tests/test_bad.py", "from calc import add\n\ndef test_bad():\n    total = add(2, 2)\n    assert total == 5\n");
      const fail = await runPythonInProcess(["-m", "pytest", "-q", "-p", "no:cacheprovider"], tree(files));
      expect(fail.exitCode).toBe(1);
      // Assertion rewriting: the failing values are shown, not just "AssertionError".
      expect(fail.stdout).toContain("assert 4 == 5");
      expect(fail.stdout).toMatch(/1 failed, 2 passed/);
    } finally {
      files.dispose();
    }
  }, 240_000);
});
