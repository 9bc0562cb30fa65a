// A code service whose code loads on first use: main.tsx hands this to the agent so the first chunk
// carries only these lines, and the service's client and worker arrive with the first edit or query.
import type { WorkspaceFs } from "../types";
import { hasScriptFiles } from "./scripts";
import type { CodeQuery, CodeQueryResult, EditedFile, FileDiagnostics } from "./types";

interface Loadable {
  diagnose(edits: EditedFile[]): Promise<FileDiagnostics[]>;
  query(query: CodeQuery): Promise<CodeQueryResult>;
  warm(): void;
  dispose(): void;
}

/** `fs`, when given, answers hasScripts without loading the service. */
export function lazyCodeIntelligence(load: () => Promise<Loadable>, fs?: Pick<WorkspaceFs, "listAll">): Loadable & { hasScripts?(): Promise<boolean> } {
  let loading: Promise<Loadable> | undefined;
  let disposed = false;
  const get = () => {
    if (disposed) return Promise.reject(new Error("The code service was closed."));
    loading ??= load().then((service) => {
      if (disposed) service.dispose();
      return service;
    });
    return loading;
  };
  return {
    diagnose: async (edits) => (await get()).diagnose(edits),
    query: async (query) => (await get()).query(query),
    warm: () => void get().then((service) => service.warm(), () => undefined),
    ...(fs && { hasScripts: () => hasScriptFiles(fs) }),
    dispose() {
      if (disposed) return;
      disposed = true;
      void loading?.then((service) => service.dispose(), () => undefined);
    },
  };
}
