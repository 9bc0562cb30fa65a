// The terminal's screen-reader mode as a view preference (like the layout, kept in localStorage):
// "auto" follows what the page can tell about a screen reader, "on"/"off" are the user's choice.
// Browsers have no API that says a screen reader runs; the one hint used is the URL parameter
// VS Code's web build understands too (?screenReader=1), e.g. from a bookmark the user keeps.
import { createStore } from "zustand/vanilla";

export type ScreenReaderSetting = "auto" | "on" | "off";

export interface ScreenReaderModeState {
  setting: ScreenReaderSetting;
  /** What "auto" found: a hint that a screen reader is in use. */
  detected: boolean;
}

export const SCREEN_READER_KEY = "webcode.screenReaderMode";

export const screenReaderMode = createStore<ScreenReaderModeState>(() => ({ setting: "auto", detected: false }));

let storage: Pick<Storage, "getItem" | "setItem"> | undefined;

/** Reads the saved choice and the page's hint; `store` is localStorage (absent when blocked). */
export function loadScreenReaderMode(store: Pick<Storage, "getItem" | "setItem"> | undefined, search: string): void {
  storage = store;
  let saved: string | null = null;
  try {
    saved = store?.getItem(SCREEN_READER_KEY) ?? null;
  } catch {
    // Blocked storage: the default stands.
  }
  const setting: ScreenReaderSetting = saved === "on" || saved === "off" ? saved : "auto";
  const hint = new URLSearchParams(search).get("screenReader");
  screenReaderMode.setState({ setting, detected: hint === "1" || hint === "true" });
}

export function setScreenReaderSetting(setting: ScreenReaderSetting): void {
  screenReaderMode.setState({ setting });
  try {
    storage?.setItem(SCREEN_READER_KEY, setting);
  } catch {
    // Not remembered past this page; the choice still applies now.
  }
}

/** Whether the terminal should run in screen-reader mode. */
export function screenReaderModeOn(state: ScreenReaderModeState = screenReaderMode.getState()): boolean {
  return state.setting === "on" || (state.setting === "auto" && state.detected);
}
