// `server.proxy` of a vite.config, as the built-in preview honours it: a previewed page's request
// whose path matches a rule goes to the rule's target, a server of this tab (localhost:PORT). The
// config is the workspace's code, which never runs in the page's origin, so its rules are read from
// the text: the common forms '/api': 'http://localhost:3001' and
// '/api': { target, changeOrigin, rewrite: (path) => path.replace(/^\/api/, '') }; keys starting
// with ^ are regular expressions, as in Vite. Other rewrite functions are reported as not applied.

export interface ProxyRule {
  /** The key: a path prefix, or a regular expression when it starts with ^. */
  context: string;
  target: string;
  /** The rewrite as a replace(pattern, replacement), when the config has the common form. */
  rewrite?: { pattern: RegExp; replacement: string };
  /** The rule has a rewrite in a form not read here (the path is sent unchanged). */
  unreadRewrite?: boolean;
}

/** The text of a balanced { … } starting at `open` (the index of "{"), strings and comments skipped. */
function balanced(text: string, open: number): string | undefined {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return undefined;
      i = end;
    } else if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (c === "{") depth += 1;
    else if (c === "}") {
      depth -= 1;
      if (depth === 0) return text.slice(open + 1, i);
    }
  }
  return undefined;
}

/** The proxy rules of a vite.config's text (none when it has no server.proxy). */
export function viteProxyRules(config: string): ProxyRule[] {
  const start = /\bproxy\s*:\s*\{/.exec(config);
  if (!start) return [];
  const body = balanced(config, start.index + start[0].length - 1);
  if (body === undefined) return [];
  const rules: ProxyRule[] = [];
  const entry = /(["'])((?:\\.|(?!\1).)+)\1\s*:\s*(?:(["'`])([^"'`]+)\3|\{)/g;
  let match: RegExpExecArray | null;
  while ((match = entry.exec(body))) {
    const context = match[2]!.replace(/\\\\/g, "\\");
    if (match[4] !== undefined) {
      rules.push({ context, target: match[4] });
      continue;
    }
    const inner = balanced(body, match.index + match[0].length - 1);
    if (inner === undefined) break;
    entry.lastIndex = match.index + match[0].length + inner.length;
    const target = /\btarget\s*:\s*(["'`])([^"'`]+)\1/.exec(inner)?.[2];
    if (!target) continue;
    const rule: ProxyRule = { context, target };
    if (/\brewrite\s*:/.test(inner)) {
      const rewrite = /\brewrite\s*:\s*\(?\s*(\w+)\s*(?::\s*\w+\s*)?\)?\s*=>\s*\1\.replace\(\s*\/((?:\\.|[^/])+)\/([gimsuy]*)\s*,\s*(["'`])([^"'`]*)\4\s*\)/.exec(inner);
      if (rewrite) rule.rewrite = { pattern: new RegExp(rewrite[2]!, rewrite[3]), replacement: rewrite[5]! };
      else rule.unreadRewrite = true;
    }
    rules.push(rule);
  }
  return rules;
}

/** The URL a request for `path` (with its query) goes to under `rules`, or undefined when none matches. */
export function proxiedUrl(rules: readonly ProxyRule[], path: string): string | undefined {
  for (const rule of rules) {
    const matches = rule.context.startsWith("^") ? new RegExp(rule.context).test(path) : path.startsWith(rule.context);
    if (!matches) continue;
    const rewritten = rule.rewrite ? path.replace(rule.rewrite.pattern, rule.rewrite.replacement) : path;
    return new URL(rewritten.startsWith("/") ? rewritten : `/${rewritten}`, rule.target).href;
  }
  return undefined;
}
