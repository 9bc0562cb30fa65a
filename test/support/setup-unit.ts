// Unit-test setup: an in-memory IndexedDB (fake-indexeddb) in place of the browser's.
import "fake-indexeddb/auto";
