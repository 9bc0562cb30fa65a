// ESLint rule: a stored record's version (`v`) is written only by the factories and the migrations
// (docs/architecture.md "Persistence"). Anywhere else in src, an object literal with a `v` property
// is a record built by hand: build it with a factory of src/storage/factories.ts instead.
import path from "node:path";

/** Where `v:` may be written: the factories, the restore step's migrations (and the schemas, which declare it). */
const RECORD_WRITERS = ["storage/factories.ts", "storage/restore.ts", "storage/migrations.ts", "storage/schemas.ts"];

/**
 * Setting values with a format version of their own (the value of a setting record, not a record):
 * provider configs, the key vault, MCP servers, user skills. Each is read back by its owner's check.
 */
const SETTING_FORMATS = ["providers/settings.ts", "providers/key-vault.ts", "agent/mcp/server-config.ts", "ui/settings/mcp-settings.ts"];

export const recordVersionsRule = {
  meta: {
    type: "problem",
    docs: { description: 'Only the record factories and migrations write `v` (docs/architecture.md, "Persistence").' },
    schema: [],
  },
  create(context) {
    const src = path.join(context.cwd, "src");
    const file = context.filename;
    if (!file.startsWith(src + path.sep)) return {};
    const relative = path.relative(src, file).split(path.sep).join("/");
    if (RECORD_WRITERS.includes(relative) || SETTING_FORMATS.includes(relative)) return {};
    return {
      Property(node) {
        if (node.parent.type !== "ObjectExpression" || node.computed) return;
        const name = node.key.type === "Identifier" ? node.key.name : node.key.type === "Literal" ? node.key.value : undefined;
        if (name !== "v") return;
        context.report({
          node,
          message:
            'A record\'s version ("v") is written only by the factories (src/storage/factories.ts) and migrations: build the record with a factory (docs/architecture.md, "Persistence").',
        });
      },
    };
  },
};

export default { rules: { "record-versions": recordVersionsRule } };
