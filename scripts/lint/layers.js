// ESLint rule: the import directions of docs/architecture.md, "Layers", written as data. An import that points
// up or sideways, reaches into another layer's internals, or pulls test code into src fails lint.
import path from "node:path";

/** Which layers each layer may import (besides itself). */
export const LAYERS = {
  base: [],
  storage: ["base"],
  providers: ["base", "storage"],
  runtime: ["base", "storage"],
  transfer: ["base", "storage", "runtime"],
  agent: ["base", "storage", "runtime", "providers"],
  ui: ["base", "storage", "runtime", "providers", "agent", "transfer"],
};

/** Concrete implementations only the composition root may pick. */
const IMPLEMENTATIONS = ["runtime/browser", "runtime/webcontainer"];

function layerOf(relative) {
  const [first] = relative.split("/");
  return first in LAYERS ? first : undefined;
}

export const layersRule = {
  meta: {
    type: "problem",
    docs: { description: 'Imports point down only (docs/architecture.md, "Layers").' },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const src = path.join(root, "src");
    const file = context.filename;
    const inSrc = file.startsWith(src + path.sep);
    const fromRel = inSrc ? path.relative(src, file).split(path.sep).join("/") : undefined;
    const fromLayer = fromRel ? layerOf(fromRel) : undefined;
    const isRoot = fromRel === "main.tsx";

    function check(node, source) {
      if (typeof source !== "string" || !source.startsWith(".")) {
        // Bare package imports: prompts may only be read by the agent (they are relative too).
        return;
      }
      const target = path.resolve(path.dirname(file), source);
      const targetFromRoot = path.relative(root, target).split(path.sep).join("/");
      if (inSrc && targetFromRoot.startsWith("test/")) {
        context.report({ node, message: `src must never import test code ("${source}").` });
        return;
      }
      if (inSrc && targetFromRoot.startsWith("prompts/") && fromLayer !== "agent") {
        context.report({ node, message: `Only src/agent reads prompts/ ("${source}").` });
        return;
      }
      if (!inSrc || !target.startsWith(src + path.sep)) return;
      const toRel = path.relative(src, target).split(path.sep).join("/");
      const toLayer = layerOf(toRel);
      if (!toLayer) return;
      const impl = IMPLEMENTATIONS.find((p) => toRel === p || toRel.startsWith(p + "/"));
      if (impl && !isRoot && !(fromRel && (fromRel === impl || fromRel.startsWith(impl + "/") || fromRel.startsWith("runtime/")))) {
        context.report({
          node,
          message: `Only src/main.tsx picks a concrete runtime; depend on the Runtime interface instead of "${source}".`,
        });
        return;
      }
      if (isRoot || toLayer === fromLayer) return;
      if (!fromLayer) return;
      if (!LAYERS[fromLayer].includes(toLayer)) {
        context.report({
          node,
          message: `Layer "${fromLayer}" may not import layer "${toLayer}" ("${source}"): imports point down only (docs/architecture.md, "Layers").`,
        });
        return;
      }
      const publicSurface = toRel === toLayer || toRel === `${toLayer}/index`;
      if (!publicSurface) {
        context.report({
          node,
          message: `Import "${toLayer}" through its public surface (src/${toLayer}/index.ts), not "${source}".`,
        });
      }
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};

export default { rules: { layers: layersRule } };
