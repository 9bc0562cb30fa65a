// CSS modules (`*.module.css`) as Vite compiles them (postcss-modules): each class name of the file
// is scoped (`_box_1a2b3`), the module's default export maps the names written to the scoped ones,
// and `composes: a b;` / `composes: a from "./other.module.css";` add the named classes to a
// class's value. `:global(.x)` stays global and `:local(.x)` is scoped. Animation names are not scoped.

export interface CssModuleResult {
  /** The CSS with its class names scoped. */
  css: string;
  /** Each local class name → its scoped name followed by what it composes from this file. */
  exports: Record<string, string>;
  /** `composes: … from "file"`: the class names of `file` to add to `into`'s value. */
  imports: Array<{ from: string; names: string[]; into: string }>;
}

export function isCssModule(path: string): boolean {
  return /\.module\.(css|scss|sass|less|styl|stylus|pcss|postcss)$/.test(path);
}

/** The scoped name of class `name` in file `path` (stable: the same for every build). */
export function scopedClassName(name: string, path: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return `_${name}_${hash.toString(36).slice(0, 5)}`;
}

const CLASS = /(:global|:local)\(\s*([^)]*)\)|\.(-?[_a-zA-Z\u00a0-\uffff][\w\u00a0-\uffff-]*)/g;

export function compileCssModule(css: string, path: string): CssModuleResult {
  const locals = new Set<string>();
  const composesLocal = new Map<string, string[]>();
  const composesGlobal = new Map<string, string[]>();
  const imports: CssModuleResult["imports"] = [];
  const scope = (name: string) => {
    locals.add(name);
    return scopedClassName(name, path);
  };
  const rewriteSelector = (selector: string): string =>
    selector.replace(CLASS, (all, pseudo: string | undefined, inner: string | undefined, name: string | undefined) => {
      if (pseudo === ":global") return inner!;
      if (pseudo === ":local") return inner!.replace(/\.(-?[_a-zA-Z][\w-]*)/g, (_m, n: string) => `.${scope(n)}`);
      return name ? `.${scope(name)}` : all;
    });
  const classesOf = (selector: string): string[] => [...selector.matchAll(/\.(-?[_a-zA-Z\u00a0-\uffff][\w\u00a0-\uffff-]*)/g)].map((m) => m[1]!);

  let out = "";
  let segment = 0;
  // The open blocks: a rule (its selector's class names) or an at-rule.
  const stack: Array<{ classes: string[] } | "at"> = [];
  const declaration = (text: string): string => {
    const top = stack[stack.length - 1];
    const composes = /^(\s*)composes\s*:\s*([^;]*?)\s*$/i.exec(text);
    if (!composes || top === undefined || top === "at") return text;
    const value = composes[2]!;
    const from = /^(.*?)\s+from\s+(?:(["'])(.*)\2|(global))$/.exec(value);
    const names = (from ? from[1]! : value).split(/\s+/).filter(Boolean);
    for (const into of top.classes) {
      if (!from) composesLocal.set(into, [...(composesLocal.get(into) ?? []), ...names]);
      else if (from[4] === "global") composesGlobal.set(into, [...(composesGlobal.get(into) ?? []), ...names]);
      else imports.push({ from: from[3]!, names, into });
    }
    return composes[1]!.replace(/[^\n]/g, ""); // the declaration goes; its line breaks stay
  };
  for (let i = 0; i < css.length; i++) {
    const c = css[i]!;
    if (c === "/" && css[i + 1] === "*") {
      const end = css.indexOf("*/", i + 2);
      i = end < 0 ? css.length : end + 1;
    } else if (c === '"' || c === "'") {
      for (i++; i < css.length && css[i] !== c; i++) if (css[i] === "\\") i++;
    } else if (c === "{") {
      const prelude = css.slice(segment, i);
      if (/^\s*@/.test(prelude)) {
        out += prelude + c;
        stack.push("at");
      } else {
        // Comments before the selector are kept as they are.
        const parts = prelude.split(/(\/\*[\s\S]*?\*\/)/);
        out += parts.map((part, n) => (n % 2 === 1 ? part : rewriteSelector(part))).join("") + c;
        const selector = parts.filter((_, n) => n % 2 === 0).join("");
        stack.push({ classes: [...new Set(classesOf(selector.replace(/:global\([^)]*\)/g, "")))] });
      }
      segment = i + 1;
    } else if (c === ";" || c === "}") {
      const text = css.slice(segment, i);
      const kept = declaration(text);
      out += kept + (c === ";" && kept !== text ? "" : c);
      if (c === "}") stack.pop();
      segment = i + 1;
    }
  }
  out += css.slice(segment);

  const exports: Record<string, string> = {};
  const valueOf = (name: string, seen: Set<string>): string[] => {
    if (seen.has(name)) return [];
    seen.add(name);
    const own = [scopedClassName(name, path)];
    for (const composed of composesLocal.get(name) ?? []) own.push(...valueOf(composed, seen));
    own.push(...(composesGlobal.get(name) ?? []));
    return own;
  };
  for (const name of locals) exports[name] = [...new Set(valueOf(name, new Set()))].join(" ");
  return { css: out, exports, imports };
}
