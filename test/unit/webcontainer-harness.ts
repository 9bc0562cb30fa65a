// Set-up for the WebContainer adapter tests (not a test file): a workspace in a fresh database,
// attached to a fake container, with every change it reports recorded.
import { afterEach } from "vitest";
import { WorkspaceFiles, type FileChange } from "../../src/runtime";
import { attachWebContainer, type WebContainerRuntimeOptions } from "../../src/runtime/webcontainer";
import { openStorage } from "../../src/storage";
import { FakeWebContainer } from "../support/fake-webcontainer";

let counter = 0;
const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

export async function openWorkspace(name = "ws"): Promise<WorkspaceFiles> {
  const storage = await openStorage({ name: `runtime-webcontainer-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, name);
  cleanup.push(() => files.dispose());
  return files;
}

export async function setup(seed?: (files: WorkspaceFiles) => Promise<void>, options?: WebContainerRuntimeOptions & { fake?: FakeWebContainer }) {
  const files = await openWorkspace();
  await seed?.(files);
  const fake = options?.fake ?? new FakeWebContainer();
  const runtime = await attachWebContainer(fake, files, options);
  cleanup.unshift(() => runtime.dispose());
  const changes: FileChange[] = [];
  files.onDidChange((batch) => changes.push(...batch));
  return { files, fake, runtime, changes };
}

/** The adapter's writes, without settle()'s marker files. */
export function apiWritesOf(fake: FakeWebContainer): string[] {
  return fake.apiWrites.filter((entry) => !entry.includes("node_modules/.webcode-sync"));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
