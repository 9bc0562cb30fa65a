// The environment npm gives a lifecycle script (npm run, npm test, npm start), as npm 10/11 set it
// (@npmcli/run-script's package-envs and @npmcli/config's setEnvs): tools read these (a build that
// names itself after npm_package_name, a config read from npm_package_config_*, INIT_CWD for the
// folder npm was started in). Each is exported, so the script's programs (node) see it too.
import { NODE_VERSION } from "../node/node-version";
import type { ProjectManifest } from "./types";

/** Where npm's own files would be; no program runs them here, but tools test that they are set. */
const NPM_CLI = "/usr/lib/node_modules/npm/bin/npm-cli.js";
const NODE_PATH = "/usr/bin/node";

/**
 * npm's flattening of package.json fields into variables: nested objects join keys with "_",
 * arrays add the index, null and false become "", undefined is left out. Only the fields npm's
 * RFC 183 names (name, version, config, engines, bin) are exported.
 */
export function packageEnv(manifest: ProjectManifest, packageJsonPath: string): Record<string, string> {
  const env: Record<string, string> = {};
  const flatten = (values: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      if (value === null || value === false) env[`${prefix}${key}`] = "";
      else if (Array.isArray(value)) value.forEach((item, index) => flatten({ [`${key}_${index}`]: item }, prefix));
      else if (typeof value === "object") flatten(value as Record<string, unknown>, `${prefix}${key}_`);
      else env[`${prefix}${key}`] = String(value);
    }
  };
  const bin = typeof manifest.bin === "string" && manifest.name ? { [manifest.name.replace(/^@[^/]+\//, "")]: manifest.bin } : manifest.bin;
  flatten({ name: manifest.name, version: manifest.version, config: manifest.config, engines: manifest.engines, bin }, "npm_package_");
  env.npm_package_json = packageJsonPath;
  return env;
}

export interface ScriptEnvOptions {
  manifest: ProjectManifest;
  /** The project's folder in the shell ("/workspace/app"). */
  projectDir: string;
  /** Where npm was typed (INIT_CWD). */
  initCwd: string;
  /** "run-script"'s successor "run", or "test", "start", … */
  command: string;
  npmVersion: string;
  /** The shell's HOME (where ~/.npmrc and the cache are). */
  home: string;
  registry: string;
  /** npm options given on the command line (--foo=bar → npm_config_foo=bar). */
  config: Record<string, string>;
}

/** Every variable of a lifecycle script but the per-event ones (npm_lifecycle_event/script). */
export function scriptEnv(options: ScriptEnvOptions): Record<string, string> {
  return {
    ...packageEnv(options.manifest, `${options.projectDir}/package.json`),
    npm_command: options.command,
    INIT_CWD: options.initCwd,
    NODE: NODE_PATH,
    npm_node_execpath: NODE_PATH,
    npm_execpath: NPM_CLI,
    npm_config_user_agent: `npm/${options.npmVersion} node/${NODE_VERSION} browser wasm workspaces/false`,
    npm_config_npm_version: options.npmVersion,
    npm_config_local_prefix: options.projectDir,
    npm_config_prefix: "/usr",
    npm_config_global_prefix: "/usr",
    npm_config_globalconfig: "/usr/etc/npmrc",
    npm_config_userconfig: `${options.home}/.npmrc`,
    npm_config_cache: `${options.home}/.npm`,
    npm_config_init_module: `${options.home}/.npm-init.js`,
    npm_config_registry: options.registry,
    ...Object.fromEntries(Object.entries(options.config).map(([name, value]) => [`npm_config_${name.replace(/-/g, "_")}`, value])),
  };
}
