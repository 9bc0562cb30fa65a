// Loads the editor engine on demand. Everything Monaco lives behind this dynamic import so the
// workbench frame paints before the editor's megabytes arrive.
import { startupOrder } from "../common";
import type * as Setup from "./monaco-setup";
import type * as Project from "./typescript-project";
import type { BufferFactory } from "./text-buffer";

export type MonacoModule = typeof Setup & typeof Project;

let loading: Promise<MonacoModule> | undefined;

/**
 * Monaco, once the page's urgent start-up work (the terminal's prompt, the chat) is done or has
 * waited long enough (ui/common/startup-order.ts): its evaluation would otherwise hold them up.
 */
export function loadMonaco(): Promise<MonacoModule> {
  loading ??= startupOrder
    .whenClear()
    .then(() => Promise.all([import("./monaco-setup"), import("./typescript-project")]))
    .then(([setup, project]) => ({ ...setup, ...project }))
    .catch((error: unknown) => {
      // Let a later attempt retry (e.g. a chunk failed to download after a deploy).
      loading = undefined;
      throw error;
    });
  return loading;
}

export async function loadMonacoBuffers(): Promise<BufferFactory> {
  return (await loadMonaco()).monacoBuffers;
}

/**
 * Starts downloading and evaluating Monaco once the frame has painted and the urgent start-up work
 * is done, so the editor is ready sooner. Resolves when Monaco is loaded (or failed).
 */
export function preloadMonaco(): Promise<void> {
  return new Promise<void>((resolve) => {
    // Two frames: the first paint has happened by the time the second callback runs.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        loadMonaco().then(
          () => resolve(),
          () => resolve(),
        );
      }),
    );
  });
}
