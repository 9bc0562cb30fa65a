// python3 in the browser runtime's worker, run in this process with Pyodide from node_modules:
// -c, FILE, -m, piped stdin, input(), exit codes, tracebacks, file changes flowing back.
import { describe, expect, it } from "vitest";
import { runPythonInProcess } from "../support/run-python";

describe("python3 (Pyodide) in the isolated execution host", () => {
  it("runs -c with its argv", async () => {
    const run = await runPythonInProcess(["-c", "import sys; print(1 + 1); print(sys.argv)", "x"]);
    expect(run).toMatchObject({ stdout: "2\n['-c', 'x']\n", stderr: "", exitCode: 0 });
  }, 60_000);

  it("runs a file from the working folder, reads piped stdin and input(), writes files that flow back", async () => {
    const run = await runPythonInProcess(
      ["app.py", "--flag"],
      { "app.py": "import sys, json\nname = input('name? ')\nrest = sys.stdin.read()\nprint('hi', name, sys.argv[1:], rest.split())\nopen('out/result.json', 'w').write(json.dumps({'n': name}))\n", "out/keep.txt": "k" },
      { stdin: "Ada\nmore lines\nhere\n" },
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("name? hi Ada ['--flag'] ['more', 'lines', 'here']\n");
    expect(run.exitCode).toBe(0);
    expect(run.ops).toEqual([{ kind: "write", path: "/workspace/out/result.json", data: new TextEncoder().encode('{"n": "Ada"}') }]);
  }, 60_000);

  it("exit codes and tracebacks as CPython prints them", async () => {
    const exit = await runPythonInProcess(["-c", "import sys; sys.exit(3)"]);
    expect(exit.exitCode).toBe(3);
    const message = await runPythonInProcess(["-c", "raise SystemExit('bye')"]);
    expect(message).toMatchObject({ exitCode: 1, stderr: "bye\n" });
    const error = await runPythonInProcess(["bad.py"], { "bad.py": "def f():\n    return 1 / 0\n\nf()\n" });
    expect(error.exitCode).toBe(1);
    expect(error.stderr).toBe(
      'Traceback (most recent call last):\n  File "/workspace/bad.py", line 4, in <module>\n    f()\n    ~^^\n  File "/workspace/bad.py", line 2, in f\n    return 1 / 0\n           ~~^~~\nZeroDivisionError: division by zero\n',
    );
    const missing = await runPythonInProcess(["nope.py"]);
    expect(missing).toMatchObject({ exitCode: 2, stderr: "python3: can't open file '/workspace/nope.py': [Errno 2] No such file or directory\n" });
  }, 120_000);

  it("-m runs standard-library modules: json.tool, unittest, doctest", async () => {
    const json = await runPythonInProcess(["-m", "json.tool"], {}, { stdin: '{"b": 1, "a": [1, 2]}' });
    expect(json).toMatchObject({ exitCode: 0, stdout: '{\n    "b": 1,\n    "a": [\n        1,\n        2\n    ]\n}\n' });
    const tests = await runPythonInProcess(["-m", "unittest", "-q", "test_calc"], {
      "calc.py": "def add(a, b):\n    return a + b\n",
      "test_calc.py": "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 2), 4)\n    def test_bad(self):\n        self.assertEqual(add(2, 2), 5)\n",
    });
    expect(tests.exitCode).toBe(1);
    expect(tests.stderr).toContain("FAIL: test_bad (test_calc.T.test_bad)");
    expect(tests.stderr).toContain("FAILED (failures=1)");
    const doctest = await runPythonInProcess(["-m", "doctest", "doc.py"], { "doc.py": 'def sq(x):\n    """\n    >>> sq(3)\n    9\n    """\n    return x * x\n' });
    expect(doctest).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
  }, 120_000);
});

describe("python3 runs one after another in one interpreter (the worker keeps Pyodide)", () => {
  it("each run starts as a fresh process: globals, workspace modules, sys.argv, sys.path, cwd, env, logging, atexit", async () => {
    const first = await runPythonInProcess(
      ["main.py", "one"],
      {
        "helper.py": "VALUE = 'old'\n",
        "sub/keep.txt": "",
        "main.py":
          "import atexit, builtins, logging, os, sys, helper\n" +
          "leaked = 'yes'\nbuiltins.leaked_builtin = 1\nsys.path.append('/somewhere')\nos.chdir('sub')\nos.environ['LEAK'] = '1'\n" +
          "logging.basicConfig(level=logging.DEBUG, format='first %(message)s')\nlogging.debug('one')\n" +
          "atexit.register(print, 'bye from the first run')\nsys.stdin.read(3)\nprint(helper.VALUE, sys.argv[1:])\n",
      },
      { stdin: "abcdef" },
    );
    expect(first).toMatchObject({ exitCode: 0, stdout: "old ['one']\nbye from the first run\n", stderr: "first one\n" });
    const second = await runPythonInProcess(
      ["main.py"],
      {
        "helper.py": "VALUE = 'new'\n",
        "main.py":
          "import builtins, logging, os, sys, helper\n" +
          "print(helper.VALUE, sys.argv[1:], 'leaked' in globals(), hasattr(builtins, 'leaked_builtin'))\n" +
          "print('/somewhere' in sys.path, os.getcwd(), os.environ.get('LEAK'), repr(sys.stdin.read()))\n" +
          "logging.warning('two')\n",
      },
      { stdin: null },
    );
    expect(second.stderr).toBe("WARNING:root:two\n");
    expect(second.stdout).toBe("new [] False False\nFalse /workspace None ''\n");
    expect(second.exitCode).toBe(0);
  }, 120_000);

  it("keeps the bytecode of imported modules for later runs, outside the workspace; -B and PYTHONDONTWRITEBYTECODE write none", async () => {
    const check = (name: string) => `import os, importlib.util as u\nprint(os.path.exists(u.cache_from_source('/workspace/${name}.py')))\nimport ${name}\n`;
    const files = { "cached_mod.py": "X = 1\n", "b_mod.py": "X = 2\n", "env_mod.py": "X = 3\n" };
    const first = await runPythonInProcess(["-c", check("cached_mod")], files);
    expect(first).toMatchObject({ exitCode: 0, stdout: "False\n", stderr: "" });
    // Nothing flows back to the workspace (CPython would write __pycache__ folders next to the sources).
    expect(first.ops).toEqual([]);
    const second = await runPythonInProcess(["-c", check("cached_mod")], files);
    expect(second).toMatchObject({ exitCode: 0, stdout: "True\n", ops: [] });
    await runPythonInProcess(["-B", "-c", "import b_mod"], files);
    await runPythonInProcess(["-c", "import env_mod"], files, { env: { HOME: "/workspace", PYTHONDONTWRITEBYTECODE: "1" } });
    const after = await runPythonInProcess(["-c", "import os, importlib.util as u\nprint([os.path.exists(u.cache_from_source('/workspace/' + n + '.py')) for n in ('b_mod', 'env_mod')])"], files);
    expect(after.stdout).toBe("[False, False]\n");
  }, 120_000);
});
