// Settings → Runtime as a store for the dialog: WebContainer on/off, its API key, the boot timeout.
// The page reads these once at load (WebContainer boots at most once per page), so a change applies
// the next time webcode opens; the section says so.
import { createStore, type StoreApi } from "zustand/vanilla";
import { errorMessage } from "../../base";
import { clampBootTimeout, restoreRuntimeSettings, RUNTIME_SETTINGS_KEY, type RuntimeSettings } from "../../runtime";
import { reloadWhenStoredElsewhere, type SettingsStorage } from "./follow-other-tabs";

export class RuntimeSettingsStore {
  readonly store: StoreApi<RuntimeSettings> = createStore<RuntimeSettings>(() => restoreRuntimeSettings(undefined));

  constructor(private readonly storage: SettingsStorage) {
    reloadWhenStoredElsewhere(storage, [RUNTIME_SETTINGS_KEY], () => this.load());
  }

  async load(): Promise<void> {
    this.store.setState(restoreRuntimeSettings(await this.storage.settings.get<unknown>(RUNTIME_SETTINGS_KEY)));
  }

  get settings(): RuntimeSettings {
    return this.store.getState();
  }

  async update(change: Partial<RuntimeSettings>): Promise<void> {
    const next = restoreRuntimeSettings({ ...this.settings, ...change });
    if (change.bootTimeoutMs !== undefined) next.bootTimeoutMs = clampBootTimeout(change.bootTimeoutMs);
    // Shown at once (a checkbox follows the click); put back if it cannot be stored.
    const previous = this.settings;
    this.store.setState(next, true);
    try {
      await this.storage.settings.put(RUNTIME_SETTINGS_KEY, next);
    } catch (error) {
      this.store.setState(previous, true);
      throw new Error(`The runtime settings could not be saved: ${errorMessage(error)}. Check that this site may store data, then try again.`, { cause: error });
    }
  }
}
