// isomorphic-git uses Node's Buffer as a global; the page has none, so the `buffer` package (the
// browser implementation Node's own docs point to) provides it before isomorphic-git loads.
import { Buffer } from "buffer";

const scope = globalThis as { Buffer?: unknown };
scope.Buffer ??= Buffer;
