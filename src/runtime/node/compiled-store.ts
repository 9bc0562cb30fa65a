// What the node runtime compiled (TypeScript stripped, ES module syntax turned into loader calls by
// sucrase), kept on the page between runs: every run is a fresh worker, so each compiled every ES
// module and TypeScript file it loaded again, with sucrase loaded and its code not yet optimised:
// mocha 12's CLI (ES modules) spent most of its start there. The page hands the entries to the
// next run (RunMessage.compiled); the worker uses one only for the very same source text.
import type { CompiledEntries, CompiledEntry } from "../sandbox/protocol";

/** About 32 MB of text: a large project's compiled files, with their sources. */
const MAX_CHARS = 16_000_000;

export class CompiledStore {
  private readonly entries = new Map<string, CompiledEntry>();
  private chars = 0;

  constructor(private readonly maxChars = MAX_CHARS) {}

  all(): CompiledEntries {
    return [...this.entries];
  }

  /** Adds what a run compiled; the oldest entries go first past the limit. */
  add(entries: CompiledEntries): void {
    for (const [key, entry] of entries) {
      this.remove(key);
      const size = entry.source.length + entry.code.length;
      if (size > this.maxChars) continue;
      this.entries.set(key, entry);
      this.chars += size;
    }
    for (const key of this.entries.keys()) {
      if (this.chars <= this.maxChars) break;
      this.remove(key);
    }
  }

  private remove(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.chars -= old.source.length + old.code.length;
  }
}
