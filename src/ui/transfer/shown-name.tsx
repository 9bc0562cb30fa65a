// Names from outside (zip entries, file and folder names, shared session titles) as the dialogs
// show them: invisible and text-direction characters spelled out, and each name bidi-isolated so
// right-to-left text in it cannot reorder the sentence around it.
import { revealInvisibleChars } from "../../base";

/** One user-controlled name, isolated from the text around it. */
export function ShownName({ name, className }: { name: string; className?: string }) {
  return <bdi className={className}>{revealInvisibleChars(name)}</bdi>;
}

/** A quoted name inside a message: "…" with backslash escapes (as JSON.stringify writes them). */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/**
 * A message that quotes names ("The entry "p/a.txt" …"): every quoted part is isolated, so a name's
 * right-to-left characters stay inside its quotes instead of mirroring the whole sentence.
 */
export function IsolatedMessage({ text }: { text: string }) {
  const shown = revealInvisibleChars(text);
  const pieces: Array<string | { quoted: string }> = [];
  let at = 0;
  for (const match of shown.matchAll(QUOTED)) {
    if (match.index > at) pieces.push(shown.slice(at, match.index));
    pieces.push({ quoted: match[0] });
    at = match.index + match[0].length;
  }
  if (at < shown.length) pieces.push(shown.slice(at));
  return <>{pieces.map((piece, i) => (typeof piece === "string" ? piece : <bdi key={i}>{piece.quoted}</bdi>))}</>;
}
