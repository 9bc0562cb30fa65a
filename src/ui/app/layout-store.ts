// Pane sizes of the workbench (view state). Remembered in localStorage so a reload keeps the layout;
// nothing else about the layout is persisted.
import { createStore, type StoreApi } from "zustand/vanilla";

export interface LayoutSizes {
  /** File tree width, px. */
  tree: number;
  /** Right panel (preview, chat) width, px. */
  right: number;
  /** Terminal height, px. */
  terminal: number;
}

export type PaneName = keyof LayoutSizes;

export const DEFAULT_LAYOUT: LayoutSizes = { tree: 240, right: 380, terminal: 240 };

/** Limits per pane; a pane can shrink to its minimum, never disappear behind a drag. */
export const PANE_LIMITS: Record<PaneName, { min: number; max: number }> = {
  tree: { min: 140, max: 600 },
  right: { min: 220, max: 900 },
  terminal: { min: 80, max: 900 },
};

const STORAGE_KEY = "webcode.layout";

export function clampSize(pane: PaneName, value: number): number {
  const { min, max } = PANE_LIMITS[pane];
  return Math.round(Math.min(max, Math.max(min, value)));
}

/** Reads saved sizes, ignoring anything malformed (the value comes from outside the app). */
export function restoreLayout(raw: string | null | undefined): LayoutSizes {
  if (!raw) return { ...DEFAULT_LAYOUT };
  try {
    const value = JSON.parse(raw) as Partial<Record<PaneName, unknown>>;
    const out = { ...DEFAULT_LAYOUT };
    for (const pane of Object.keys(DEFAULT_LAYOUT) as PaneName[]) {
      const size = value?.[pane];
      if (typeof size === "number" && Number.isFinite(size)) out[pane] = clampSize(pane, size);
    }
    return out;
  } catch {
    return { ...DEFAULT_LAYOUT };
  }
}

export interface LayoutState {
  sizes: LayoutSizes;
  /** Panes the user has hidden (toggled off). */
  hidden: { tree: boolean; right: boolean; terminal: boolean };
}

export interface LayoutStore extends StoreApi<LayoutState> {
  resize(pane: PaneName, size: number): void;
  toggle(pane: PaneName): void;
}

export function createLayoutStore(storage?: Pick<globalThis.Storage, "getItem" | "setItem">): LayoutStore {
  let saved: string | null = null;
  try {
    saved = storage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    // Storage can be blocked (privacy settings); the defaults are fine.
  }
  const store = createStore<LayoutState>(() => ({
    sizes: restoreLayout(saved),
    hidden: { tree: false, right: false, terminal: false },
  }));
  const save = () => {
    try {
      storage?.setItem(STORAGE_KEY, JSON.stringify(store.getState().sizes));
    } catch {
      // Not being able to remember the layout is not worth bothering the user about.
    }
  };
  return Object.assign(store, {
    resize(pane: PaneName, size: number) {
      const sizes = { ...store.getState().sizes, [pane]: clampSize(pane, size) };
      store.setState({ sizes });
      save();
    },
    toggle(pane: PaneName) {
      const hidden = store.getState().hidden;
      store.setState({ hidden: { ...hidden, [pane]: !hidden[pane] } });
    },
  });
}
