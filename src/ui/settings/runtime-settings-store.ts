// Settings → Runtime as a store for the dialog: WebContainer on/off, its API key, the boot timeout.
// The page reads these once at load (WebContainer boots at most once per page), so a change applies
// the next time webcode opens; the section says so.
import { createStore, type StoreApi } from "zustand/vanilla";
import { errorMessage, Serial } from "../../base";
import { clampBootTimeout, restoreRuntimeSettings, RUNTIME_SETTINGS_KEY, type RuntimeSettings } from "../../runtime";
import { reloadWhenStoredElsewhere, type SettingsStorage } from "./follow-other-tabs";

export class RuntimeSettingsStore {
  /** What the dialog shows: stored settings with the changes still being stored. */
  readonly store: StoreApi<RuntimeSettings> = createStore<RuntimeSettings>(() => restoreRuntimeSettings(undefined));
  /** What is stored: each change is written on top of it, one at a time. */
  private stored: RuntimeSettings = restoreRuntimeSettings(undefined);
  private readonly writes = new Serial();

  constructor(private readonly storage: SettingsStorage) {
    reloadWhenStoredElsewhere(storage, [RUNTIME_SETTINGS_KEY], () => this.load());
  }

  /** Reads what is stored (in the write queue: a read never lands over a change made after it). */
  load(): Promise<void> {
    return this.writes.run(async () => {
      this.stored = restoreRuntimeSettings(await this.storage.settings.get<unknown>(RUNTIME_SETTINGS_KEY));
      this.store.setState(this.stored, true);
    });
  }

  get settings(): RuntimeSettings {
    return this.store.getState();
  }

  update(change: Partial<RuntimeSettings>): Promise<void> {
    // Shown at once (a checkbox follows the click); stored after the changes before it.
    this.store.setState(withChange(this.settings, change), true);
    return this.writes.run(async () => {
      const next = withChange(this.stored, change);
      try {
        await this.storage.settings.put(RUNTIME_SETTINGS_KEY, next);
      } catch (error) {
        // Only this change's own fields go back to what is stored; others made meanwhile stay.
        const undo = Object.fromEntries(Object.keys(change).map((key) => [key, this.stored[key as keyof RuntimeSettings]])) as Partial<RuntimeSettings>;
        this.store.setState(withChange(this.settings, undo), true);
        throw new Error(`The runtime settings could not be saved: ${errorMessage(error)}. Check that this site may store data, then try again.`, { cause: error });
      }
      this.stored = next;
      // Shown again: a reload queued before this change showed what was stored then.
      this.store.setState(withChange(this.settings, change), true);
    });
  }
}

function withChange(base: RuntimeSettings, change: Partial<RuntimeSettings>): RuntimeSettings {
  const next = restoreRuntimeSettings({ ...base, ...change });
  if (change.bootTimeoutMs !== undefined) next.bootTimeoutMs = clampBootTimeout(change.bootTimeoutMs);
  return next;
}
