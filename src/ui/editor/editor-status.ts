// What the status bar shows about the editor (cursor, language). View state only.
import { createStore } from "zustand/vanilla";

export interface EditorStatusState {
  line?: number;
  column?: number;
  language?: string;
  /** Diagnostics of the active file. */
  errors: number;
  warnings: number;
}

export const editorStatus = createStore<EditorStatusState>(() => ({ errors: 0, warnings: 0 }));
