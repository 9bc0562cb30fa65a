// The Changes view's diff: Monaco's diff editor, loaded through the shell's lazy Monaco loader (the
// same chunk the editor uses). Read-only; its two models are made here and disposed with it.
import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../../base";
import type { DiffRendererProps } from "../chat";
import { languageForPath, loadMonaco } from "../editor";

/** Below this width the diff is shown inline instead of side by side. */
export const SIDE_BY_SIDE_MIN_WIDTH = 640;

export function MonacoDiff({ path, original, modified }: DiffRendererProps) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ status: "loading" | "ready" } | { status: "failed"; message: string }>({ status: "loading" });

  useEffect(() => {
    let live = true;
    let release: (() => void) | undefined;
    setState({ status: "loading" });
    loadMonaco().then(
      ({ monaco }) => {
        const element = host.current;
        if (!live || !element) return;
        const language = languageForPath(path);
        // Models without a workspace URI: they must not take part in the workspace's TypeScript project.
        const originalModel = monaco.editor.createModel(original, language);
        const modifiedModel = monaco.editor.createModel(modified, language);
        const editor = monaco.editor.createDiffEditor(element, {
          readOnly: true,
          originalEditable: false,
          automaticLayout: true,
          renderSideBySide: element.clientWidth >= SIDE_BY_SIDE_MIN_WIDTH,
          useInlineViewWhenSpaceIsLimited: true,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          renderOverviewRuler: false,
          theme: "webcode-dark",
          fontSize: 12,
        });
        // The view model is made here and disposed here: one the editor makes itself from
        // setModel({original, modified}) is never disposed (Monaco 0.57 keeps a reference), so a diff
        // still being computed when the view closes is not cancelled and finds its models gone
        // ("no diff result available", an unhandled rejection). Disposing it cancels that diff.
        const viewModel = editor.createViewModel({ original: originalModel, modified: modifiedModel });
        editor.setModel(viewModel);
        // Names for the two sides' input areas (screen readers; axe requires them). Set on each side:
        // the diff editor's originalAriaLabel/modifiedAriaLabel options do not reach them at creation.
        editor.getOriginalEditor().updateOptions({ ariaLabel: `${path} before the changes` });
        editor.getModifiedEditor().updateOptions({ ariaLabel: `${path} after the changes` });
        release = () => {
          editor.setModel(null);
          viewModel.dispose();
          editor.dispose();
          originalModel.dispose();
          modifiedModel.dispose();
        };
        setState({ status: "ready" });
      },
      (error: unknown) => live && setState({ status: "failed", message: `The diff editor could not load: ${errorMessage(error)}. Reload the page to try again.` }),
    );
    return () => {
      live = false;
      release?.();
    };
  }, [path, original, modified]);

  return (
    <div className="monaco-diff" role="region" aria-label={`Diff of ${path}`} data-diff-ready={state.status === "ready"}>
      <div ref={host} className="monaco-diff-host" />
      {state.status === "loading" && <p className="changes-note">Loading the diff…</p>}
      {state.status === "failed" && (
        <p className="changes-note" role="alert">
          {state.message}
        </p>
      )}
    </div>
  );
}

/** The `renderDiff` prop of the agent UI. */
export function renderMonacoDiff(props: DiffRendererProps) {
  return <MonacoDiff {...props} />;
}
