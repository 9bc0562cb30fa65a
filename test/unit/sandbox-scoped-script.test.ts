// The runtime's worker bundle runs as a classic script; its top-level names must not be the
// program's globals (a program's modules are evaluated at global scope with indirect eval). Its
// frames named node:internal/webcode-runtime (a sourceURL, which Node's vm does not apply) are
// checked in Chromium: test/e2e/test-runners.e2e.ts.
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { scopedScript } from "../../src/runtime/sandbox/scoped-script";

/** A minified bundle's top level, then "a program" that sets and reads globals as mocha's bdd interface and a test file do. */
const BUNDLE = "var r = 1; const it = 2; let et = 3; function describe() { return 'bundle'; }\nglobalThis.runProgram = (code) => (0, eval)(code);\n//# sourceMappingURL=worker.js.map";
const PROGRAM = "globalThis.it = () => 'mocha it'; globalThis.describe = () => 'mocha describe'; r = 'program'; [typeof it === 'function' ? it() : typeof it, describe(), typeof et].join(', ')";

function runInRealm(script: string): { result: unknown; context: vm.Context } {
  const context = vm.createContext({});
  vm.runInContext(script, context);
  return { result: vm.runInContext(`runProgram(${JSON.stringify(PROGRAM)})`, context), context };
}

describe("scopedScript", () => {
  it("keeps the bundle's top-level declarations out of the program's global scope", () => {
    const { result, context } = runInRealm(scopedScript(BUNDLE));
    expect(result).toBe("mocha it, mocha describe, undefined");
    // The program's assignment to a global named like a bundle variable lands on the global object.
    expect(vm.runInContext("globalThis.r", context)).toBe("program");
  });

  it("(as a classic script the bundle's names shadow the program's globals)", () => {
    // mocha's `it` is the bundle's const (what "it is not a function" came from), and so is `et`.
    expect(runInRealm(BUNDLE).result).toBe("number, mocha describe, number");
    // Without a const in the way, the program clobbers the bundle's own variable.
    const context = vm.createContext({});
    vm.runInContext("var r = 1; globalThis.get = () => r; globalThis.runProgram = (code) => (0, eval)(code);", context);
    vm.runInContext("runProgram('r = \"program\"')", context);
    expect(vm.runInContext("get()", context)).toBe("program");
  });
});
