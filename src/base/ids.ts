// Identifiers. Ids are time-ordered: sorting ids sorts by creation, even within one millisecond.

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
let lastTime = 0;
let counter = 0;

// Random bytes are drawn 4 KiB at a time: one getRandomValues call per id cost 60 ms of one task
// when a share of 20,000 parts was given new ids (docs/architecture.md "Sharing").
const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let poolAt = POOL_SIZE;

function randomSuffix(length: number): string {
  if (poolAt + length > POOL_SIZE) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[pool[poolAt + i]! % ALPHABET.length];
  poolAt += length;
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
