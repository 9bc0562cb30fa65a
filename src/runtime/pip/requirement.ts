// PEP 508 requirements ("name[extra]>=1,<2; python_version >= '3.8'") and their environment
// markers, evaluated for the Python this page runs (Pyodide: CPython on Emscripten/wasm32). Version
// comparison and specifiers are PEP 440, from @renovatebot/pep440. The grammar is small and fixed by
// the PEP, and no well-kept npm library parses PEP 508 markers, so the parser is written here.
import { compare, satisfies, valid } from "@renovatebot/pep440";

/** The Python that python3 runs (Pyodide's CPython; test/unit/pip-requirement.test.ts checks it against Pyodide's lock). */
export const PYTHON_FULL_VERSION = "3.14.2";
export const PYTHON_VERSION = PYTHON_FULL_VERSION.split(".").slice(0, 2).join(".");

export type MarkerEnv = Record<string, string>;

/** Pyodide's values of the PEP 508 marker variables (its `packaging.markers.default_environment()`). */
export const PYODIDE_ENV: MarkerEnv = {
  os_name: "posix",
  sys_platform: "emscripten",
  platform_machine: "wasm32",
  platform_python_implementation: "CPython",
  platform_release: "",
  platform_system: "Emscripten",
  platform_version: "",
  python_version: PYTHON_VERSION,
  python_full_version: PYTHON_FULL_VERSION,
  implementation_name: "cpython",
  implementation_version: PYTHON_FULL_VERSION,
};

export class RequirementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RequirementError";
  }
}

export interface Requirement {
  /** As written. */
  name: string;
  extras: string[];
  /** PEP 440 specifier set ("" = any version). */
  specifier: string;
  marker?: Marker;
  /** The requirement as written, for messages. */
  text: string;
}

/** PEP 503 normalized name: lowercase, runs of -_. become one "-". */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

const NAME = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*/;

export function parseRequirement(text: string): Requirement {
  const [head = "", ...markerParts] = text.split(";");
  const markerText = markerParts.join(";").trim();
  const match = NAME.exec(head);
  if (!match) throw new RequirementError(`"${text.trim()}" is not a valid requirement (PEP 508): it should start with a package name.`);
  let rest = head.slice(match[0].length);
  let extras: string[] = [];
  if (rest.startsWith("[")) {
    const end = rest.indexOf("]");
    if (end < 0) throw new RequirementError(`"${text.trim()}": the extras' "[" is never closed.`);
    extras = rest
      .slice(1, end)
      .split(",")
      .map((extra) => extra.trim())
      .filter((extra) => extra !== "");
    rest = rest.slice(end + 1).trim();
  }
  if (rest.startsWith("@")) throw new RequirementError(`"${text.trim()}": installing from a URL is not supported here; name a package from the index.`);
  if (rest.startsWith("(") && rest.endsWith(")")) rest = rest.slice(1, -1);
  const specifier = rest.replace(/\s+/g, "");
  if (specifier !== "" && !specifier.split(",").every((part) => /^(~=|===|==|!=|<=|>=|<|>)[A-Za-z0-9.*+!_-]+$/.test(part))) {
    throw new RequirementError(`"${text.trim()}": "${rest}" is not a version specifier (PEP 440), e.g. ">=1.0,<2".`);
  }
  return { name: match[1]!, extras, specifier, marker: markerText === "" ? undefined : parseMarker(markerText), text: text.trim() };
}

// Markers -------------------------------------------------------------------------------------

export type Marker =
  | { kind: "and" | "or"; left: Marker; right: Marker }
  | { kind: "compare"; left: MarkerValue; op: string; right: MarkerValue };
type MarkerValue = { variable: string } | { literal: string };

const TOKEN = /\s*(\(|\)|'[^']*'|"[^"]*"|===|==|!=|<=|>=|~=|<|>|not\s+in\b|in\b|and\b|or\b|[A-Za-z_][A-Za-z0-9_.]*)/y;
const VARIABLES = new Set([...Object.keys(PYODIDE_ENV), "extra", "os.name", "sys.platform", "platform.version", "platform.machine", "platform.python_implementation", "python_implementation"]);

export function parseMarker(text: string): Marker {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) throw new RequirementError(`The marker "${text}" cannot be read at "${text.slice(at).trim()}".`);
    tokens.push(match[1]!.replace(/\s+/g, " "));
  }
  let position = 0;
  const fail = (): never => {
    throw new RequirementError(`The marker "${text}" is not valid (PEP 508).`);
  };
  const value = (): MarkerValue => {
    const token = tokens[position++] ?? fail();
    if (token.startsWith("'") || token.startsWith('"')) return { literal: token.slice(1, -1) };
    if (!VARIABLES.has(token)) throw new RequirementError(`The marker "${text}" uses an unknown variable "${token}".`);
    return { variable: token.replace(/\./g, "_").replace(/^python_implementation$/, "platform_python_implementation") };
  };
  const atom = (): Marker => {
    if (tokens[position] === "(") {
      position++;
      const inner = or();
      if (tokens[position++] !== ")") fail();
      return inner;
    }
    const left = value();
    const op = tokens[position++] ?? fail();
    if (!["===", "==", "!=", "<=", ">=", "~=", "<", ">", "in", "not in"].includes(op)) fail();
    return { kind: "compare", left, op, right: value() };
  };
  const and = (): Marker => {
    let left = atom();
    while (tokens[position] === "and") {
      position++;
      left = { kind: "and", left, right: atom() };
    }
    return left;
  };
  const or = (): Marker => {
    let left = and();
    while (tokens[position] === "or") {
      position++;
      left = { kind: "or", left, right: and() };
    }
    return left;
  };
  const marker = or();
  if (position !== tokens.length) fail();
  return marker;
}

/** Evaluates a marker; `extra` is the extra being asked for ("" for none). */
export function evaluateMarker(marker: Marker, env: MarkerEnv = PYODIDE_ENV, extra = ""): boolean {
  if (marker.kind !== "compare") {
    const left = evaluateMarker(marker.left, env, extra);
    return marker.kind === "and" ? left && evaluateMarker(marker.right, env, extra) : left || evaluateMarker(marker.right, env, extra);
  }
  const resolve = (side: MarkerValue) => ("literal" in side ? side.literal : side.variable === "extra" ? extra : (env[side.variable] ?? ""));
  let left = resolve(marker.left);
  let right = resolve(marker.right);
  const isExtra = ("variable" in marker.left && marker.left.variable === "extra") || ("variable" in marker.right && marker.right.variable === "extra");
  if (isExtra) {
    left = normalizeName(left);
    right = normalizeName(right);
  }
  const { op } = marker;
  if (op === "in") return right.includes(left);
  if (op === "not in") return !right.includes(left);
  if (op === "===") return left === right;
  if (!isExtra && valid(left) && valid(right)) {
    // PEP 508: the right-hand side is a specifier; a version on the left is checked against it.
    if (op === "~=" || op === "==" || op === "!=") return satisfies(left, `${op}${right}`);
    const order = compare(left, right);
    return op === "<" ? order < 0 : op === "<=" ? order <= 0 : op === ">" ? order > 0 : order >= 0;
  }
  if (op === "==") return left === right;
  if (op === "!=") return left !== right;
  throw new RequirementError(`The marker compares "${left}" ${op} "${right}", which are not versions.`);
}

/** Whether a dependency applies to an install that asked for `extras` of its parent. */
export function applies(requirement: Requirement, extras: string[], env: MarkerEnv = PYODIDE_ENV): boolean {
  if (!requirement.marker) return true;
  const marker = requirement.marker;
  return [""].concat(extras).some((extra) => evaluateMarker(marker, env, extra));
}
