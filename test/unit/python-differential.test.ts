// python3 (Pyodide) against the machine's CPython: the same scripts, the same stdin; stdout, stderr
// and exit codes must match. Tracebacks are compared too (file names are made the same).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runPythonInProcess } from "../support/run-python";

function versionOf(command: string): number {
  try {
    return Number(execFileSync(command, ["-c", "import sys; print(sys.version_info[0] * 100 + sys.version_info[1])"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  } catch {
    return 0;
  }
}

/** The newest CPython 3.11+ on the machine: on PATH, or installed by pyenv. Pyodide's is 3.14. */
const cpython = (() => {
  const pyenv = join(process.env.PYENV_ROOT ?? join(homedir(), ".pyenv"), "versions");
  const installed = existsSync(pyenv) ? readdirSync(pyenv).map((v) => join(pyenv, v, "bin", "python3")) : [];
  const found = ["python3.14", "python3.13", "python3", ...installed].map((command) => ({ command, version: versionOf(command) }));
  return found.filter((c) => c.version >= 311).sort((a, b) => b.version - a.version)[0];
})();

/** The caret lines under a failing expression changed style in CPython 3.13; before that they are not compared. */
function comparable(text: string): string {
  return cpython && cpython.version >= 313 ? text : text.replace(/^ +[~^]+\n/gm, "");
}

const SCRIPTS: Array<{ name: string; source: string; args?: string[]; stdin?: string }> = [
  { name: "arith.py", source: "print(2 ** 100, 7 // 2, -7 // 2, 7 % -3, round(2.675, 2), 0.1 + 0.2)\nprint(f'{3.14159:.2f}', format(1234567, ','), divmod(17, 5))\n" },
  { name: "strings.py", source: "s = 'Hello, Wörld'\nprint(s.upper(), s[::-1], s.encode('utf-8'), len(s))\nprint(' | '.join(sorted(['pear', 'apple', 'fig'], key=len)))\nprint(repr('tab\\tnew\\nline'))\n" },
  { name: "data.py", source: "import json, collections\nc = collections.Counter('mississippi')\nprint(c.most_common(2))\nprint(json.dumps({'b': [1, 2.5, None, True], 'a': 'x'}, sort_keys=True, indent=2))\nprint(sorted({3, 1, 2}), dict(zip('ab', range(2))))\n" },
  { name: "classes.py", source: "from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\n    y: int = 0\n    def norm(self):\n        return (self.x ** 2 + self.y ** 2) ** 0.5\nprint(P(3, 4), P(3, 4).norm(), P(1) == P(1, 0))\n" },
  { name: "stdin.py", source: "import sys\nlines = sys.stdin.read().splitlines()\nprint(len(lines), [l.upper() for l in lines])\n", stdin: "one\ntwo\nthree\n" },
  { name: "argv.py", source: "import sys\nprint(sys.argv[1:])\nsys.exit(int(sys.argv[1]))\n", args: ["4", "x y"] },
  { name: "error.py", source: "def parse(v):\n    return int(v)\n\nvalues = ['1', 'two']\nfor v in values:\n    print(parse(v))\n" },
  { name: "stderr.py", source: "import sys\nprint('out')\nprint('err', file=sys.stderr)\nraise SystemExit('stopping here')\n" },
  { name: "gen.py", source: "import itertools\ndef fib():\n    a, b = 0, 1\n    while True:\n        yield a\n        a, b = b, a + b\nprint(list(itertools.islice(fib(), 15)))\nprint([x for x in range(20) if x % 3 == 0])\n" },
  { name: "keyerror.py", source: "d = {'a': 1}\nprint(d['a'])\nprint(d['missing'])\n" },
];

describe.skipIf(!cpython)("python3 against the machine's CPython", () => {
  it("prints the same output, errors and exit codes for a set of scripts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "webcode-py-"));
    try {
      for (const script of SCRIPTS) {
        writeFileSync(join(dir, script.name), script.source);
        // CPython run from the folder, with the script named relatively, prints '/workspace'-free paths;
        // both sides name the file by its absolute path, mapped to the same text below.
        const real = spawnSync(cpython!.command, [join(dir, script.name), ...(script.args ?? [])], { cwd: dir, input: script.stdin ?? "", encoding: "utf8", env: { PATH: process.env.PATH, PYTHONIOENCODING: "utf-8", LANG: "C.UTF-8" } });
        const ours = await runPythonInProcess([script.name, ...(script.args ?? [])], { [script.name]: script.source }, { stdin: script.stdin ?? null });
        const clean = (text: string) => comparable(text.replaceAll(dir, "/workspace"));
        expect({ script: script.name, stdout: ours.stdout, stderr: comparable(ours.stderr), exitCode: ours.exitCode }).toEqual({
          script: script.name,
          stdout: clean(real.stdout),
          stderr: clean(real.stderr),
          exitCode: real.status,
        });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
