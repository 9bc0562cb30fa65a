// The built-in preview's PostCSS step, a Node program run by the browser runtime's node on the
// isolated execution host (never in the page: the config and its plugins are workspace code).
// Its working folder is the served folder, as Vite's is. It reads one request on standard input,
// {"config": "postcss.config.js", "files": [{"path": "/workspace/src/index.css", "css": "…"}]},
// loads the project's postcss and config once, processes every file and prints one line:
// {"results": [{"css": "…"} | {"error": {message, line, column}}]} or {"failed": "…"} when the
// config or a plugin could not be loaded.
//
// The config is loaded here rather than by postcss-load-config (what Vite uses) because a project
// need not have that package installed (Vite bundles it); this follows its rules: a config module's
// export (an object, or a function of the context), `plugins` as an object of name → options (false
// leaves one out) or an array, `parser`/`syntax`/`stringifier` by package name.
"use strict";
const fs = require("fs");
const path = require("path");
const { createRequire } = require("module");
const { pathToFileURL } = require("url");

const MARKER = "\u0000webcode-postcss\u0000";

function readStdin() {
  return new Promise((resolve) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk) => (text += chunk));
    process.stdin.on("end", () => resolve(text));
  });
}

/** Why a module did not load, in one line: a missing package by name, a native module as such. */
function loadFailure(what, error) {
  const message = String((error && error.message) || error);
  if (/@tailwindcss\/oxide|Cannot find native binding|\.node\b/.test(message)) {
    return `${what} needs a native module (${/@tailwindcss\/oxide/.test(message) ? "@tailwindcss/oxide" : "a compiled .node file"}) the browser runtime cannot load`;
  }
  const missing = /Cannot find (?:module|package) '([^']+)'/.exec(message);
  if (missing && error.code === "MODULE_NOT_FOUND") return `${what} is not installed in the workspace (${missing[1]} not found; run npm install)`;
  return `${what} failed to load: ${message.split("\n")[0]}`;
}

async function importModule(file) {
  const loaded = await import(pathToFileURL(file).href);
  return loaded && "default" in loaded ? loaded.default : loaded;
}

async function loadConfig(root, name) {
  const file = path.join(root, name);
  if (name === "package.json") return JSON.parse(fs.readFileSync(file, "utf8")).postcss;
  if (/\.(js|cjs|mjs|ts|mts|cts)$/.test(name)) {
    const config = await importModule(file);
    return typeof config === "function" ? config({ cwd: root, env: process.env.NODE_ENV, file: undefined, options: {} }) : config;
  }
  const text = fs.readFileSync(file, "utf8");
  if (/\.ya?ml$/.test(name) || (name === ".postcssrc" && !/^\s*\{/.test(text))) return createRequire(file)("yaml").parse(text);
  return JSON.parse(text);
}

function pluginsOf(config, requireFrom, configName) {
  const plugins = [];
  const list = config.plugins || [];
  const load = (name, options) => {
    let plugin;
    try {
      plugin = requireFrom(name);
    } catch (error) {
      const missing = error && error.code === "MODULE_NOT_FOUND" && new RegExp(`'${name}'`).test(String(error.message));
      // Tailwind v4 loads @tailwindcss/oxide and lightningcss, native modules. node loads their
      // WebAssembly builds in their place (node/native-substitutes.ts): lightningcss-wasm runs, but
      // oxide's (@tailwindcss/oxide-wasm32-wasi) needs node:wasi and threads on shared memory.
      if (name === "@tailwindcss/postcss" && !missing) {
        throw new Error(
          `Tailwind v4's PostCSS plugin (@tailwindcss/postcss) needs native modules (@tailwindcss/oxide, lightningcss); the WebAssembly build of @tailwindcss/oxide needs node:wasi and worker_threads sharing WebAssembly memory, and it did not load here (${String((error && error.message) || error).split("\n")[0]})`,
        );
      }
      throw new Error(loadFailure(`The PostCSS plugin ${name} (${configName})`, error));
    }
    plugin = plugin && plugin.__esModule && plugin.default ? plugin.default : plugin;
    const empty = options == null || options === true || (typeof options === "object" && Object.keys(options).length === 0);
    return empty ? plugin : plugin(options);
  };
  if (Array.isArray(list)) {
    for (const item of list) {
      if (typeof item === "string") plugins.push(load(item, undefined));
      else if (Array.isArray(item) && typeof item[0] === "string") plugins.push(load(item[0], item[1]));
      else if (item) plugins.push(item);
    }
  } else {
    for (const [name, options] of Object.entries(list)) if (options !== false) plugins.push(load(name, options));
  }
  return plugins;
}

async function main() {
  const request = JSON.parse(await readStdin());
  const root = process.cwd();
  const requireFrom = createRequire(path.join(root, "package.json"));
  let postcss;
  try {
    postcss = requireFrom("postcss");
  } catch (error) {
    return { failed: loadFailure("postcss", error) };
  }
  let config;
  let processor;
  try {
    config = (await loadConfig(root, request.config)) || {};
    processor = postcss(pluginsOf(config, createRequire(path.join(root, request.config)), request.config));
  } catch (error) {
    const message = String((error && error.message) || error).split("\n")[0];
    return { failed: /^(The PostCSS plugin |Tailwind v4)/.test(message) ? message : loadFailure(`PostCSS's config (${request.config})`, error) };
  }
  const byName = (option) => (typeof option === "string" ? requireFrom(option) : option);
  const options = { parser: byName(config.parser), syntax: byName(config.syntax), stringifier: byName(config.stringifier), map: false };
  const results = [];
  for (const file of request.files) {
    try {
      const result = await processor.process(file.css, { ...options, from: file.path, to: file.path });
      results.push({ css: result.css, warnings: result.warnings().map((w) => w.toString()) });
    } catch (error) {
      if (error && error.name === "CssSyntaxError") {
        results.push({ error: { message: `${error.plugin ? `[${error.plugin}] ` : ""}${error.reason}`, file: error.file, line: error.line, column: error.column } });
      } else {
        const failure = loadFailure("PostCSS", error);
        if (/native module/.test(failure)) return { failed: failure };
        results.push({ error: { message: String((error && error.message) || error).split("\n")[0] } });
      }
    }
  }
  return { results };
}

main().then(
  (answer) => process.stdout.write(MARKER + JSON.stringify(answer) + "\n"),
  (error) => process.stdout.write(MARKER + JSON.stringify({ failed: `PostCSS failed: ${String((error && error.message) || error).split("\n")[0]}` }) + "\n"),
);
