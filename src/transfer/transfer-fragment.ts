// The address fragment as key=value pairs ("#a=1&share=v1.…"): which transfer it asks for, if any.
// Keys match whole, and only the first `share`, `import` or `github` key counts, so one link never
// starts two of them.

export type TransferFragment = { kind: "share"; data: string } | { kind: "import"; url: string } | { kind: "github"; spec: string };

/** The `key=value` pairs of a fragment, in order (a pair without "=" has the value ""). */
export function fragmentParams(fragment: string): Array<[string, string]> {
  return fragment
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq < 0 ? [pair, ""] : [pair.slice(0, eq), pair.slice(eq + 1)];
    });
}

/**
 * The transfer a URL, fragment (`#share=…`) or pasted text (`share=…`) asks for: the first
 * non-empty `share` or `import` key of its fragment. Text without "#" counts only when it starts
 * with one of those keys; a query string (`?share=`) never does.
 */
export function findTransferFragment(input: string): TransferFragment | undefined {
  const text = input.trim();
  const hash = text.indexOf("#");
  const fragment = hash >= 0 ? text.slice(hash + 1) : /^(?:share|import|github)=/.test(text) ? text : "";
  // Pasted text can go on after the link; the link ends at the first whitespace.
  const end = fragment.search(/\s/);
  for (const [key, value] of fragmentParams(end < 0 ? fragment : fragment.slice(0, end))) {
    if (value === "" || (key !== "share" && key !== "import" && key !== "github")) continue;
    if (key === "share") return { kind: "share", data: value };
    if (key === "github") return { kind: "github", spec: decodeComponent(value) };
    return { kind: "import", url: decodeComponent(value) };
  }
  return undefined;
}

function decodeComponent(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
