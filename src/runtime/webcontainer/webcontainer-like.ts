// The parts of @webcontainer/api 1.6's public API that the adapter uses, as an interface: the real
// WebContainer satisfies it, and tests pass a fake (WebContainer cannot boot without the network).

export interface ProcessLike {
  exit: Promise<number>;
  input: WritableStream<string>;
  output: ReadableStream<string>;
  kill(): void;
  resize(dimensions: { cols: number; rows: number }): void;
}

export interface DirEntLike {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
}

export interface WatcherLike {
  close(): void;
}

export type WatchListener = (event: "rename" | "change", filename: string | Uint8Array) => void;

export interface ContainerFsLike {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  mkdir(path: string, options: { recursive: true }): Promise<string>;
  rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void>;
  rename(oldPath: string, newPath: string): Promise<void>;
  readdir(path: string, options: { encoding?: null; withFileTypes: true }): Promise<DirEntLike[]>;
  watch(filename: string, options: { recursive?: boolean }, listener: WatchListener): WatcherLike;
}

/** WebContainer's mount format: names to files (text or bytes) and folders. */
export interface MountTree {
  [name: string]: { file: { contents: string | Uint8Array } } | { directory: MountTree };
}

export interface SpawnOptionsLike {
  cwd?: string;
  env?: Record<string, string | number | boolean>;
  output?: boolean;
  terminal?: { cols: number; rows: number };
}

export interface WebContainerLike {
  fs: ContainerFsLike;
  mount(tree: MountTree): Promise<void>;
  spawn(command: string, args: string[], options?: SpawnOptionsLike): Promise<ProcessLike>;
  on(event: "server-ready", listener: (port: number, url: string) => void): () => void;
  on(event: "port", listener: (port: number, type: "open" | "close", url: string) => void): () => void;
  on(event: "error", listener: (error: { message: string }) => void): () => void;
  teardown(): void;
}
