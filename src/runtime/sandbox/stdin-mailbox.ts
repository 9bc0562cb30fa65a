// Terminal input for a program that reads it synchronously (python's input(), sys.stdin.readline()):
// the worker cannot receive a message while it blocks, so the answer comes through shared memory.
// The sandbox frame (public/sandbox.html, an agent of the worker's cluster: a SharedArrayBuffer
// cannot cross from the page's origin to the sandbox's opaque one) creates one mailbox per worker,
// puts each answer in it and wakes the worker; the worker takes it. Needs a cross-origin-isolated
// frame (the iframe's allow="cross-origin-isolated"); without one, sync reads see the end of input.
// See docs/architecture.md "Isolated execution host". public/sandbox.html repeats put() inline (a
// static page cannot import this module): keep the two in step.

/** Largest answer the mailbox holds; the page splits longer input across reads. */
export const MAILBOX_CAPACITY = 64 * 1024;

/** Header words: state, byte count. */
const STATE = 0;
const LENGTH = 1;
const HEADER_BYTES = 8;
const EMPTY = 0;
const DATA = 1;
const END = 2;

export function createMailbox(): SharedArrayBuffer | undefined {
  if (typeof SharedArrayBuffer !== "function") return undefined;
  try {
    return new SharedArrayBuffer(HEADER_BYTES + MAILBOX_CAPACITY);
  } catch {
    return undefined;
  }
}

/** The frame's side: one answer (null: end of input), then the worker is woken. */
export function put(mailbox: SharedArrayBuffer, data: Uint8Array | null): void {
  const header = new Int32Array(mailbox, 0, 2);
  if (data === null) {
    Atomics.store(header, LENGTH, 0);
    Atomics.store(header, STATE, END);
  } else {
    const bytes = data.subarray(0, MAILBOX_CAPACITY);
    new Uint8Array(mailbox, HEADER_BYTES, bytes.length).set(bytes);
    Atomics.store(header, LENGTH, bytes.length);
    Atomics.store(header, STATE, DATA);
  }
  Atomics.notify(header, STATE);
}

/**
 * The worker's side: `ask` requests an answer, then this blocks until it is in the mailbox (the
 * worker is terminated from outside on Ctrl-C, so an endless wait ends with it).
 */
export function take(mailbox: SharedArrayBuffer, ask: () => void): Uint8Array | null {
  const header = new Int32Array(mailbox, 0, 2);
  Atomics.store(header, STATE, EMPTY);
  ask();
  while (Atomics.load(header, STATE) === EMPTY) Atomics.wait(header, STATE, EMPTY);
  const state = Atomics.load(header, STATE);
  const length = Atomics.load(header, LENGTH);
  Atomics.store(header, STATE, EMPTY);
  return state === END ? null : new Uint8Array(mailbox, HEADER_BYTES, length).slice();
}
