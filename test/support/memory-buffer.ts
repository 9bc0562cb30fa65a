// An editor buffer in memory (what Monaco's model is to EditorDocuments), for tests without an editor.
import { Emitter } from "../../src/base";
import type { TextBuffer } from "../../src/ui/editor";

export class MemoryBuffer implements TextBuffer {
  private readonly changed = new Emitter<void>();
  disposed = false;
  constructor(
    readonly path: string,
    private text: string,
  ) {}
  getValue() {
    return this.text;
  }
  setValue(text: string) {
    this.text = text;
    this.changed.fire();
  }
  /** What typing in the editor does. */
  type(text: string) {
    this.setValue(this.text + text);
  }
  onDidChangeContent(listener: () => void) {
    return this.changed.event(listener);
  }
  dispose() {
    this.disposed = true;
    this.changed.dispose();
  }
}
