// Builds webcode's service worker (src/sw/service-worker.ts) to /sw.js and writes into it the list
// of files it caches for offline use: every file of this build and of public/, with a version that
// changes whenever any of them does (so the browser sees a new worker and the app offers the update).
// The dev server serves the same worker with an empty list (nothing cached; the preview works).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Plugin, ResolvedConfig } from "vite";

const ENTRY = "src/sw/service-worker.ts";
const OUTPUT = "sw.js";

function publicFiles(dir: string, prefix = ""): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? publicFiles(full, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

export function serviceWorkerPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: "webcode:service-worker",
    configResolved(resolved) {
      config = resolved;
    },
    buildStart() {
      if (config.command !== "build") return;
      this.emitFile({ type: "chunk", id: path.resolve(config.root, ENTRY), fileName: OUTPUT });
    },
    // After Vite's HTML plugin has added index.html to the bundle.
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        const worker = bundle[OUTPUT];
        if (!worker || worker.type !== "chunk") return;
        const files = [...Object.keys(bundle).filter((name) => name !== OUTPUT && !name.endsWith(".map") && !name.startsWith(".vite/")), ...publicFiles(config.publicDir)].sort();
        const hash = createHash("sha256");
        for (const name of files) {
          const item = bundle[name];
          if (!item) {
            hash.update(name).update(readFileSync(path.join(config.publicDir, name)));
          } else {
            hash.update(name).update(item.type === "chunk" ? item.code : typeof item.source === "string" ? item.source : Buffer.from(item.source));
          }
        }
        const manifest = { version: hash.digest("hex").slice(0, 16), files };
        worker.code = `self.__WEBCODE_PRECACHE__ = ${JSON.stringify(manifest)};\n${worker.code}`;
      },
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        if ((req.url ?? "").split("?")[0] !== `/${OUTPUT}`) return next();
        try {
          const result = await server.transformRequest(`/${ENTRY}`);
          res.setHeader("Content-Type", "text/javascript; charset=utf-8");
          res.setHeader("Cache-Control", "no-cache");
          res.end(`self.__WEBCODE_PRECACHE__ = { version: "dev", files: [] };\n${result?.code ?? ""}`);
        } catch (error) {
          next(error);
        }
      });
    },
  };
}
