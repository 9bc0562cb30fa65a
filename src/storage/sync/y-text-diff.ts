// Sync (issue 33, docs/architecture.md "Sync"): a local save goes into the file's shared Y.Text as
// the smallest change, not as delete-all + insert-all, so that a collaborator's concurrent edits
// elsewhere in the file survive the merge (Yjs merges per character). Not wired yet: the file
// service's sync source will call it; loaded only with the sync code.
import { diffChars } from "diff";
import type * as Y from "yjs";

/** Makes `text` read `next` with the fewest inserted and deleted characters (diff's Myers diff). */
export function applyTextToYText(text: Y.Text, next: string): void {
  const current = text.toString();
  if (current === next) return;
  const apply = () => {
    let index = 0;
    for (const change of diffChars(current, next)) {
      if (change.removed) text.delete(index, change.value.length);
      else if (change.added) {
        text.insert(index, change.value);
        index += change.value.length;
      } else index += change.value.length;
    }
  };
  if (text.doc) text.doc.transact(apply);
  else apply();
}
