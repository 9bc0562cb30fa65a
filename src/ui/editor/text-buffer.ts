// The one thing the open-documents service needs from an editor engine: a text buffer per open
// file. Monaco models implement it in the page; tests use plain in-memory buffers.
import type { Disposable } from "../../base";

export interface TextBuffer extends Disposable {
  readonly path: string;
  getValue(): string;
  /** Replaces the whole text as one undoable edit (a reload from disk can be undone). */
  setValue(text: string): void;
  onDidChangeContent(listener: () => void): Disposable;
}

export interface BufferFactory {
  create(path: string, text: string): TextBuffer;
}
