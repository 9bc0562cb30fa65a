// Giving the event loop a turn in the middle of long work, so input, rendering and timers run.

/** A macrotask turn (MessageChannel: unlike nested setTimeout, browsers do not clamp it to 4 ms, nor throttle it in a background tab). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

/** Lets the page handle input and render, then goes on: `scheduler.yield()` where the browser has it, else a macrotask turn. */
export function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : yieldToEventLoop();
}
