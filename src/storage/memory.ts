// Storage that lives only in this tab's memory, for when the browser will not open IndexedDB at all
// (storage disabled for the site, some private modes): the same Storage interface, schema and
// repositories as the IndexedDB one, so the editor, terminal, agent and chat work unchanged, and
// nothing survives the tab. The in-memory IndexedDB is fake-indexeddb (a complete implementation of
// the IndexedDB API in JavaScript, kept up to date with the spec's tests) rather than a second set of
// repositories written by hand. See docs/architecture.md, "Persistence".
import { DATABASE_NAME, openDatabase } from "./database";

/**
 * Puts the in-memory IndexedDB in the page's place and returns the browser's own factory (to check
 * later whether it works again). `idb`, which the repositories use, reads the page's IndexedDB
 * globals (`indexedDB`, `IDBRequest`, `IDBCursor`, …), so the whole set is replaced at once: this is
 * fake-indexeddb's own way of standing in (its `auto` entry). Only called when the browser's
 * IndexedDB failed to open, so nothing else in the page is using it.
 */
export async function installMemoryIndexedDB(): Promise<IDBFactory | undefined> {
  const browserFactory = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  const { default: _default, forceCloseDatabase: _close, ...globals } = await import("fake-indexeddb");
  // As fake-indexeddb/auto does: `indexedDB` is read-only by the IDL, so define, do not assign.
  for (const [name, value] of Object.entries(globals)) {
    Object.defineProperty(globalThis, name, { value, enumerable: false, configurable: true, writable: true });
  }
  return browserFactory;
}

/** A database name no other tab or earlier page uses: its changes are announced to nobody. */
export function memoryDatabaseName(): string {
  return `${DATABASE_NAME}-memory-${crypto.randomUUID()}`;
}

/**
 * Opens a fresh in-memory database and checks, with a write, a read and a cursor, that it works
 * (rejects otherwise: then there is no storage at all).
 */
export async function openMemoryDatabase(name: string) {
  const db = await openDatabase(name);
  const tx = db.transaction("settings", "readwrite");
  await tx.store.put({ key: "storage.memory-check", value: 1 });
  const cursor = await tx.store.openCursor();
  const next = cursor ? await cursor.continue() : undefined;
  await tx.store.delete("storage.memory-check");
  await tx.done;
  if (!cursor || next !== null) {
    db.close();
    throw new Error("the in-memory database does not work in this browser");
  }
  return db;
}
