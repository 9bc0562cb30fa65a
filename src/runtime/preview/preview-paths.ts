// Path arithmetic for the built-in preview: URL paths of the previewed site and the workspace paths
// they name ("src/a.ts", no leading slash). ".." never leaves the served folder.

/** Joins and normalises; returns undefined when ".." would climb above the root. */
export function joinPath(...parts: string[]): string | undefined {
  const out: string[] = [];
  for (const part of parts.join("/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return undefined;
      out.pop();
      continue;
    }
    out.push(part);
  }
  return out.join("/");
}

export function dirnameOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/** The path relative to `root` ("" is the workspace); undefined when it is outside. */
export function withinRoot(root: string, path: string): string | undefined {
  if (root === "") return path;
  if (path === root) return "";
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : undefined;
}

export function underRoot(root: string, path: string): string {
  return root === "" ? path : path === "" ? root : `${root}/${path}`;
}

/** Decodes a URL path ("/a%20b/") into its segments' text; undefined when it does not decode. */
export function decodeUrlPath(urlPath: string): string | undefined {
  try {
    const decoded = decodeURIComponent(urlPath);
    return decoded.includes("\0") ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/** Encodes a workspace path for a URL, segment by segment. */
export function encodeUrlPath(path: string): string {
  return path
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}
