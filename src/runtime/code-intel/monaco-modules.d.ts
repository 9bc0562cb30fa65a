// Types for the parts of monaco-editor's TypeScript, JSON and CSS workers that the code service
// reuses (Monaco publishes these modules without declarations). TypeScript's own types come from
// the `typescript` dev dependency; Monaco 0.57 ships TypeScript 5.9, whose API the service uses.
declare module "monaco-editor/languages/features/typescript/lib/typescriptServices.js" {
  import type * as TS from "typescript";
  export const typescript: typeof TS;
}

declare module "monaco-editor/languages/features/typescript/lib/lib.js" {
  export const libFileMap: Record<string, string>;
}

declare module "monaco-editor/languages/features/json/jsonWorker.js" {
  export class JSONWorker {
    constructor(ctx: { getMirrorModels(): Array<{ uri: { toString(): string }; version: number; getValue(): string }> }, createData: { languageSettings: unknown; languageId: string; enableSchemaRequest: boolean });
    doValidation(uri: string): Promise<Array<{ range: { start: { line: number; character: number } }; message: string; severity?: number; code?: string | number }>>;
  }
}

declare module "monaco-editor/languages/features/css/cssWorker.js" {
  export class CSSWorker {
    constructor(ctx: { getMirrorModels(): Array<{ uri: { toString(): string }; version: number; getValue(): string }> }, createData: { options: unknown; languageId: string });
    doValidation(uri: string): Promise<Array<{ range: { start: { line: number; character: number } }; message: string; severity?: number; code?: string | number }>>;
  }
}
