// `import text from "FILE?gzip-base64"`: the file gzipped and base64-encoded, as a string. For bytes
// a worker bundle must carry inline (it is one file and the sandbox lets it fetch nothing) but that
// only some runs decode: brotli-wasm's 1 MB wasm is 0.67 MB base64 this way instead of 1.4 MB, so
// each worker start scans half as much text and the bundle downloads smaller
// (src/runtime/node/builtins/brotli-codec.ts).
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

const QUERY = "?gzip-base64";

export function gzippedBase64Plugin(): Plugin {
  return {
    name: "webcode:gzip-base64",
    enforce: "pre",
    load(id) {
      if (!id.endsWith(QUERY)) return undefined;
      const file = id.slice(0, -QUERY.length);
      this.addWatchFile(file);
      return { code: `export default ${JSON.stringify(gzipSync(readFileSync(file), { level: 9 }).toString("base64"))};`, map: null };
    },
  };
}
