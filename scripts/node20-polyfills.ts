// Vitest 5 declares Node 22 and its reporter calls Map.groupBy (Node 21+) when it prints failures.
// On Node 20 that crash hides every failure's details, so vite.config.ts installs this first.
if (typeof (Map as { groupBy?: unknown }).groupBy !== "function") {
  Object.defineProperty(Map, "groupBy", {
    configurable: true,
    writable: true,
    value: function groupBy<K, T>(items: Iterable<T>, key: (item: T, index: number) => K): Map<K, T[]> {
      const groups = new Map<K, T[]>();
      let index = 0;
      for (const item of items) {
        const k = key(item, index++);
        const group = groups.get(k);
        if (group) group.push(item);
        else groups.set(k, [item]);
      }
      return groups;
    },
  });
}
export {};
