// A scripted address bar for the share and import UIs: records replaceState calls, and
// `paste(url)` changes the address the way pasting a link into an open tab does (hashchange).
export interface FakeAddressBar {
  readonly address: {
    href(): string;
    replace(url: string): void;
    subscribe(listener: () => void): () => void;
  };
  /** URLs the UI put in place of the current one, in order. */
  readonly replaced: string[];
  /** How many listeners are subscribed now. */
  listenerCount(): number;
  /** Sets the address and notifies every subscriber, like a hashchange. */
  paste(url: string): void;
}

export function fakeAddressBar(initial: string): FakeAddressBar {
  let href = initial;
  const replaced: string[] = [];
  const listeners = new Set<() => void>();
  return {
    address: {
      href: () => href,
      replace: (url) => {
        replaced.push(url);
        href = url;
      },
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    replaced,
    listenerCount: () => listeners.size,
    paste(url) {
      href = url;
      listeners.forEach((listener) => listener());
    },
  };
}
