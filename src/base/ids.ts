// Identifiers. Ids are time-ordered: sorting ids sorts by creation, even within one millisecond.

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
let lastTime = 0;
let counter = 0;

function randomSuffix(length: number): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  let out = "";
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

/** `prefix_` + 9 chars of time + 4 of a per-ms counter + 8 random; lexicographic order = creation order. */
export function newId(prefix: string, now: number = Date.now()): string {
  if (now <= lastTime) {
    now = lastTime;
    counter++;
  } else {
    lastTime = now;
    counter = 0;
  }
  const time = now.toString(36).padStart(9, "0");
  const seq = counter.toString(36).padStart(4, "0");
  return `${prefix}_${time}${seq}${randomSuffix(8)}`;
}

/** The creation time encoded in an id made by newId. */
export function idTime(id: string): number {
  const body = id.slice(id.indexOf("_") + 1);
  return parseInt(body.slice(0, 9), 36);
}
