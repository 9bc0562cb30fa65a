// The heavy half of the editor, loaded only through monaco-loader.ts (a lazy chunk): Monaco, its
// web workers, the dark theme and the TypeScript settings that let workspace files import each other.
import * as monaco from "monaco-editor";
import EditorWorker from "monaco-editor/editor/editor.worker.js?worker";
import TsWorker from "monaco-editor/language/typescript/ts.worker.js?worker";
import JsonWorker from "monaco-editor/language/json/json.worker.js?worker";
import CssWorker from "monaco-editor/language/css/css.worker.js?worker";
import HtmlWorker from "monaco-editor/language/html/html.worker.js?worker";
import type { BufferFactory, TextBuffer } from "./text-buffer";
import { languageForPath } from "./languages";
import { sharedCompilerOptions } from "../../runtime";

export { monaco };

/** Workers by Monaco's label; everything else uses the base editor worker. */
function workerFor(label: string): Worker {
  switch (label) {
    case "typescript":
    case "javascript":
      return new TsWorker();
    case "json":
      return new JsonWorker();
    case "css":
    case "scss":
    case "less":
      return new CssWorker();
    case "html":
    case "handlebars":
    case "razor":
      return new HtmlWorker();
    default:
      return new EditorWorker();
  }
}

self.MonacoEnvironment = { getWorker: (_moduleId: string, label: string) => workerFor(label) };

monaco.editor.defineTheme("webcode-dark", {
  base: "vs-dark",
  inherit: true,
  rules: [],
  colors: {
    "editor.background": "#1e1e1e",
    "editorGutter.background": "#1e1e1e",
  },
});

const ts = monaco.typescript;
const compilerOptions: monaco.typescript.CompilerOptions = {
  ...sharedCompilerOptions(ts),
  // NodeJs resolution finds "./b" as b.ts, b.tsx, b.d.ts or b/index.ts among the synced files.
  moduleResolution: ts.ModuleResolutionKind.NodeJs,
  baseUrl: "file:///",
};
for (const defaults of [ts.typescriptDefaults, ts.javascriptDefaults]) {
  defaults.setCompilerOptions(compilerOptions);
  defaults.setDiagnosticsOptions({ noSemanticValidation: false, noSyntaxValidation: false });
  // Models of closed files are not kept; the extra libs of typescript-project.ts cover them.
  defaults.setEagerModelSync(true);
}

export function uriForPath(path: string): monaco.Uri {
  return monaco.Uri.file("/" + path);
}

class MonacoBuffer implements TextBuffer {
  constructor(
    readonly path: string,
    readonly model: monaco.editor.ITextModel,
  ) {}

  getValue(): string {
    return this.model.getValue();
  }

  setValue(text: string): void {
    // An edit (not model.setValue) so the reload can be undone and the cursor stays near.
    this.model.pushStackElement();
    this.model.pushEditOperations([], [{ range: this.model.getFullModelRange(), text }], () => null);
    this.model.pushStackElement();
  }

  onDidChangeContent(listener: () => void) {
    return this.model.onDidChangeContent(() => listener());
  }

  dispose(): void {
    if (!this.model.isDisposed()) this.model.dispose();
  }
}

export const monacoBuffers: BufferFactory & { model(path: string): monaco.editor.ITextModel | undefined } = {
  create(path, text) {
    const uri = uriForPath(path);
    monaco.editor.getModel(uri)?.dispose();
    const model = monaco.editor.createModel(text, languageForPath(path), uri);
    return new MonacoBuffer(path, model);
  },
  model(path) {
    return monaco.editor.getModel(uriForPath(path)) ?? undefined;
  },
};
