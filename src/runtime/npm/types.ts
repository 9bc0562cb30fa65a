// Shapes of what the npm registry serves (the abbreviated "corgi" packument) and of what an install
// plans, shared by the registry client, the resolver, the lockfile and the installer.

/** One version of a package as the abbreviated packument describes it. */
export interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: string | Record<string, string>;
  directories?: { bin?: string };
  dist: { tarball: string; integrity?: string; shasum?: string };
  scripts?: Record<string, string>;
  hasInstallScript?: boolean;
  gypfile?: boolean;
  os?: string[];
  cpu?: string[];
  engines?: Record<string, string>;
  license?: string;
  deprecated?: string;
  /** Dependencies the package ships inside its tarball (true: all of them); bundledDependencies is the old spelling. */
  bundleDependencies?: string[] | boolean;
  bundledDependencies?: string[] | boolean;
}

export interface Packument {
  name: string;
  "dist-tags": Record<string, string>;
  versions: Record<string, Manifest>;
}

/** The project's package.json, as far as an install reads and writes it. */
export interface ProjectManifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
  bin?: string | Record<string, string>;
  [key: string]: unknown;
}

/** One package placed in the tree, keyed by its folder ("node_modules/a/node_modules/b"). */
export interface PlacedPackage {
  location: string;
  name: string;
  version: string;
  resolved: string;
  integrity?: string;
  /** Every dependency edge the package declares (optional ones included), name → range. */
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  bin?: Record<string, string>;
  dev: boolean;
  optional: boolean;
  hasInstallScript: boolean;
  license?: string;
  engines?: Record<string, string>;
}

/** The whole planned tree: every placed package by location, in a stable order. */
export type Tree = Map<string, PlacedPackage>;

/** Where output goes while a command runs (progress lines go to stderr, as npm's do). */
export interface NpmOutput {
  out(text: string): void;
  err(text: string): void;
}
