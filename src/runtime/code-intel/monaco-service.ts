// The code service built from what Monaco ships: its TypeScript build (5.9) and lib files for
// TS/JS, and the validators inside its JSON and CSS workers (vscode-json- and
// vscode-css-languageservice). HTML gets nothing: Monaco's HTML worker has no validator.
// Heavy (~12 MB of source): imported only by the worker (worker.ts) and by Node tests.
import { typescript } from "monaco-editor/languages/features/typescript/lib/typescriptServices.js";
import { libFileMap } from "monaco-editor/languages/features/typescript/lib/lib.js";
import { JSONWorker } from "monaco-editor/languages/features/json/jsonWorker.js";
import { CSSWorker } from "monaco-editor/languages/features/css/cssWorker.js";
import { CodeService } from "./code-service";
import { SingleDocument, allowsComments } from "./mirror-context";

export function createMonacoCodeService(): CodeService {
  const json = new SingleDocument();
  const jsonWorker = (lenient: boolean) =>
    new JSONWorker(json, {
      languageSettings: {
        validate: true,
        allowComments: lenient,
        schemas: [],
        comments: lenient ? "ignore" : "error",
        trailingCommas: lenient ? "ignore" : "error",
      },
      languageId: "json",
      enableSchemaRequest: false,
    });
  const strictJson = jsonWorker(false);
  const lenientJson = jsonWorker(true);

  const css = new SingleDocument();
  const cssOptions = { validate: true, lint: {}, data: { useDefaultDataProvider: true } };
  const cssWorkers = {
    css: new CSSWorker(css, { options: cssOptions, languageId: "css" }),
    scss: new CSSWorker(css, { options: cssOptions, languageId: "scss" }),
    less: new CSSWorker(css, { options: cssOptions, languageId: "less" }),
  };

  return new CodeService({
    ts: typescript,
    libFiles: libFileMap,
    json: (path, text) => json.validate(allowsComments(path) ? lenientJson : strictJson, path, text),
    css: (path, text) => {
      const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
      return css.validate(ext === "scss" ? cssWorkers.scss : ext === "less" ? cssWorkers.less : cssWorkers.css, path, text);
    },
  });
}
