// npm and npx for the browser runtime (loaded on first use, so the page's first chunk does not grow).
export { runNpm, runNpx, NPM_VERSION, type NpmContext, type CommandResult } from "./cli";
export { install, type InstallRequest, type InstallSummary } from "./install";
export { Project } from "./project";
export { RegistryClient, registryFromNpmrc, DEFAULT_REGISTRY, NpmError, type RegistryFetch } from "./registry";
export { resolveTree, pickVersion } from "./resolve";
export { writeLockfile, parseLockfile, treeFromLockfile } from "./lockfile";
export { unpackTarball } from "./tarball";
export { checkIntegrity, integrityOf } from "./integrity";
