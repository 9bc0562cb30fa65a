// The terminal's screen-reader mode preference: the saved choice, the page's hint for "auto", and
// a change that is remembered (or not, when storage is blocked) and applies at once.
import { beforeEach, describe, expect, it } from "vitest";
import { loadScreenReaderMode, SCREEN_READER_KEY, screenReaderMode, screenReaderModeOn, setScreenReaderSetting } from "../../src/ui/common";

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), items };
}

describe("screen reader mode", () => {
  beforeEach(() => screenReaderMode.setState({ setting: "auto", detected: false }));

  it("is off by default and on in auto when the page says a screen reader is used (?screenReader=1)", () => {
    loadScreenReaderMode(memoryStorage(), "");
    expect(screenReaderModeOn()).toBe(false);
    loadScreenReaderMode(memoryStorage(), "?screenReader=1");
    expect(screenReaderMode.getState()).toEqual({ setting: "auto", detected: true });
    expect(screenReaderModeOn()).toBe(true);
  });

  it("a saved choice wins over the hint, and an unknown saved value falls back to auto", () => {
    loadScreenReaderMode(memoryStorage({ [SCREEN_READER_KEY]: "off" }), "?screenReader=1");
    expect(screenReaderModeOn()).toBe(false);
    loadScreenReaderMode(memoryStorage({ [SCREEN_READER_KEY]: "on" }), "");
    expect(screenReaderModeOn()).toBe(true);
    loadScreenReaderMode(memoryStorage({ [SCREEN_READER_KEY]: "<script>" }), "");
    expect(screenReaderMode.getState().setting).toBe("auto");
  });

  it("a change applies at once and is remembered; blocked storage only loses the memory", () => {
    const storage = memoryStorage();
    loadScreenReaderMode(storage, "");
    const seen: boolean[] = [];
    const unsubscribe = screenReaderMode.subscribe((s) => seen.push(screenReaderModeOn(s)));
    setScreenReaderSetting("on");
    expect(seen).toEqual([true]);
    expect(storage.items.get(SCREEN_READER_KEY)).toBe("on");
    unsubscribe();
    const blocked = { getItem: () => { throw new Error("SecurityError"); }, setItem: () => { throw new Error("SecurityError"); } };
    loadScreenReaderMode(blocked, "");
    expect(screenReaderMode.getState().setting).toBe("auto");
    setScreenReaderSetting("on");
    expect(screenReaderModeOn()).toBe(true);
  });
});
