// PEP 508 requirements and markers as pip evaluates them for Pyodide's Python, wheel names and tags,
// core metadata and RECORD files.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { applies, evaluateMarker, isPureWheel, normalizeName, parseMarker, parseMetadata, parseRequirement, parseWheelName, PYTHON_FULL_VERSION, recordPaths } from "../../src/runtime/pip";
import { recordText } from "../../src/runtime/pip/wheel";

describe("pip requirements and markers", () => {
  it("the Python version pip resolves for is the one Pyodide bundles", () => {
    const lock = JSON.parse(readFileSync("node_modules/pyodide/pyodide-lock.json", "utf8")) as { info: { python: string } };
    expect(PYTHON_FULL_VERSION).toBe(lock.info.python);
  });

  it("parses names, extras, specifiers (with or without parentheses) and markers", () => {
    expect(parseRequirement("Foo.Bar[Baz, qux] >= 1.0, <2 ; python_version >= '3.8'")).toMatchObject({ name: "Foo.Bar", extras: ["Baz", "qux"], specifier: ">=1.0,<2" });
    expect(parseRequirement("tiny_dep (>=0.1)")).toMatchObject({ name: "tiny_dep", extras: [], specifier: ">=0.1", marker: undefined });
    expect(normalizeName("Tiny_Dep.x--y")).toBe("tiny-dep-x-y");
    expect(() => parseRequirement("pkg @ https://example.com/x.whl")).toThrow(/URL is not supported/);
    expect(() => parseRequirement("pkg >> 1")).toThrow(/not a version specifier/);
    expect(() => parseRequirement("-bad")).toThrow(/package name/);
  });

  it("evaluates markers for Pyodide: emscripten, wasm32, its Python version, and/or with parentheses", () => {
    const yes = (text: string, extra = "") => evaluateMarker(parseMarker(text), undefined, extra);
    expect(yes('sys_platform == "emscripten"')).toBe(true);
    expect(yes('sys_platform == "win32"')).toBe(false);
    expect(yes('platform_system == "Emscripten" and platform_machine == "wasm32"')).toBe(true);
    expect(yes('python_version >= "3.10"')).toBe(true);
    // Versions compare as versions, not strings ("3.9" < "3.14").
    expect(yes('python_version > "3.9"')).toBe(true);
    expect(yes('python_version < "3.8" or (os_name == "posix" and implementation_name == "cpython")')).toBe(true);
    expect(yes('python_version < "3.8" or (os_name == "nt" and implementation_name == "cpython")')).toBe(false);
    expect(yes('"linux" in sys_platform')).toBe(false);
    expect(yes('"linux" not in sys_platform')).toBe(true);
    expect(yes('python_full_version ~= "3.14.0"')).toBe(true);
    expect(yes('extra == "Fast_Mode"', "fast-mode")).toBe(true);
    expect(yes('extra == "fast"')).toBe(false);
    expect(() => parseMarker('python_version >= "3" and')).toThrow(/not valid/);
    expect(() => parseMarker('colour == "red"')).toThrow(/unknown variable "colour"/);
  });

  it("a dependency behind an extra applies only when that extra is asked for", () => {
    const dep = parseRequirement('speedups==1.*; extra == "fast"');
    expect(applies(dep, [])).toBe(false);
    expect(applies(dep, ["fast"])).toBe(true);
    expect(applies(parseRequirement("plain"), [])).toBe(true);
  });

  it("wheel names expand to tags; only py3-none-any style wheels count as pure", () => {
    expect(parseWheelName("pkg-1.0-py2.py3-none-any.whl")).toEqual({ name: "pkg", version: "1.0", tags: ["py2-none-any", "py3-none-any"] });
    expect(isPureWheel(parseWheelName("pkg-1.0-py2.py3-none-any.whl")!)).toBe(true);
    expect(isPureWheel(parseWheelName("pkg-1.0-1-py3-none-any.whl")!)).toBe(true);
    expect(isPureWheel(parseWheelName("pkg-1.0-cp314-cp314-manylinux_2_17_x86_64.whl")!)).toBe(false);
    expect(isPureWheel(parseWheelName("pkg-1.0-py2-none-any.whl")!)).toBe(false);
    expect(parseWheelName("pkg-1.0.tar.gz")).toBeUndefined();
  });

  it("reads core metadata headers (repeated and continued) and RECORD paths (quoted too)", () => {
    const metadata = parseMetadata("Name: pkg\nVersion: 1.0\nRequires-Dist: a\nRequires-Dist: b; extra == 'x'\nLicense: MIT\n  and more\n\nBody: not a header\n");
    expect(metadata.get("requires-dist")).toEqual(["a", "b; extra == 'x'"]);
    expect(metadata.get("license")).toEqual(["MIT\nand more"]);
    expect(metadata.get("body")).toBeUndefined();
    expect(recordPaths(recordText(["pkg/__init__.py", 'odd,"name".py']))).toEqual(["pkg/__init__.py", 'odd,"name".py']);
  });
});
