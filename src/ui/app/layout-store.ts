// Pane sizes of the workbench (view state). Remembered in localStorage so a reload keeps the layout;
// nothing else about the layout is persisted. Sizes are fitted to the workbench's size so the editor
// always keeps a usable area, on every window size and after a reload.
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

/** The editor area no pane may squeeze below (px): room for tabs and a few lines of code. */
export const MIN_EDITOR_WIDTH = 320;
export const MIN_EDITOR_HEIGHT = 160;
/** Width or height of one split handle (px), as in the workbench grid. */
export const HANDLE_SIZE = 4;

/** The workbench's own size (px), where the panes and the editor share the space. */
export interface Viewport {
  width: number;
  height: number;
}

export type HiddenPanes = Record<PaneName, boolean>;

const STORAGE_KEY = "webcode.layout";

export function clampSize(pane: PaneName, value: number): number {
  const { min, max } = PANE_LIMITS[pane];
  return Math.round(Math.min(max, Math.max(min, value)));
}

/**
 * The largest size a pane may take in this viewport, given the other panes' sizes: what is left once
 * the editor keeps its minimum. Never below the pane's own minimum (a tiny window squeezes the editor
 * instead of making a pane vanish).
 */
export function maxSizeFor(pane: PaneName, sizes: LayoutSizes, viewport: Viewport | undefined, hidden?: HiddenPanes): number {
  const { min, max } = PANE_LIMITS[pane];
  if (!viewport) return max;
  let room: number;
  if (pane === "terminal") room = viewport.height - MIN_EDITOR_HEIGHT - HANDLE_SIZE;
  else {
    const other: PaneName = pane === "tree" ? "right" : "tree";
    const otherWidth = hidden?.[other] ? 0 : sizes[other] + HANDLE_SIZE;
    room = viewport.width - MIN_EDITOR_WIDTH - HANDLE_SIZE - otherWidth;
  }
  return Math.max(min, Math.min(max, Math.floor(room)));
}

/**
 * Fits wanted sizes into a viewport: the terminal leaves the editor its minimum height; when the side
 * panes together leave the editor too narrow, the right panel gives way first, then the tree.
 */
export function fitLayout(wanted: LayoutSizes, viewport: Viewport | undefined, hidden?: HiddenPanes): LayoutSizes {
  const out: LayoutSizes = {
    tree: clampSize("tree", wanted.tree),
    right: clampSize("right", wanted.right),
    terminal: clampSize("terminal", wanted.terminal),
  };
  if (!viewport) return out;
  out.terminal = Math.min(out.terminal, maxSizeFor("terminal", out, viewport, hidden));
  out.right = Math.min(out.right, maxSizeFor("right", out, viewport, hidden));
  out.tree = Math.min(out.tree, maxSizeFor("tree", out, viewport, hidden));
  return out;
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
  /** The sizes shown: what the user chose, fitted to the viewport. */
  sizes: LayoutSizes;
  /** Panes the user has hidden (toggled off). */
  hidden: HiddenPanes;
  /** The workbench's size once measured. */
  viewport?: Viewport;
}

export interface LayoutStore extends StoreApi<LayoutState> {
  resize(pane: PaneName, size: number): void;
  toggle(pane: PaneName): void;
  /** The workbench was measured (first layout, window resize, a notice row appearing or going). */
  setViewport(viewport: Viewport): void;
  /** The largest size `pane` can take right now (for the separator's End key and aria-valuemax). */
  maxSize(pane: PaneName): number;
  /**
   * Sizes are kept per workspace: switches to `workspaceId`'s (a workspace without its own keeps the
   * current ones, which become its own at the first resize).
   */
  useWorkspace(workspaceId: string): void;
}

export function createLayoutStore(storage?: Pick<globalThis.Storage, "getItem" | "setItem">): LayoutStore {
  let saved: string | null = null;
  try {
    saved = storage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    // Storage can be blocked (privacy settings); the defaults are fine.
  }
  // What the user asked for (restored or dragged); what is shown is this fitted to the viewport, so
  // a window that shrinks and grows back gets the chosen layout back.
  let wanted = restoreLayout(saved);
  const store = createStore<LayoutState>(() => ({
    sizes: { ...wanted },
    hidden: { tree: false, right: false, terminal: false },
  }));
  let workspaceKey: string | undefined;
  const save = () => {
    try {
      // The last sizes chosen anywhere are also where a workspace without its own starts.
      storage?.setItem(STORAGE_KEY, JSON.stringify(wanted));
      if (workspaceKey) storage?.setItem(workspaceKey, JSON.stringify(wanted));
    } catch {
      // Not being able to remember the layout is not worth bothering the user about.
    }
  };
  const refit = () => {
    const { viewport, hidden, sizes } = store.getState();
    const next = fitLayout(wanted, viewport, hidden);
    if (next.tree !== sizes.tree || next.right !== sizes.right || next.terminal !== sizes.terminal) store.setState({ sizes: next });
  };
  const maxSize = (pane: PaneName) => {
    const { viewport, hidden, sizes } = store.getState();
    return maxSizeFor(pane, sizes, viewport, hidden);
  };
  return Object.assign(store, {
    resize(pane: PaneName, size: number) {
      // Kept as shown: a size beyond what fits is not remembered as a wish to grow later.
      const fitted = Math.min(clampSize(pane, size), maxSize(pane));
      wanted = { ...wanted, [pane]: fitted };
      refit();
      save();
    },
    toggle(pane: PaneName) {
      const hidden = store.getState().hidden;
      store.setState({ hidden: { ...hidden, [pane]: !hidden[pane] } });
      refit();
    },
    setViewport(viewport: Viewport) {
      const current = store.getState().viewport;
      if (current && current.width === viewport.width && current.height === viewport.height) return;
      if (viewport.width <= 0 || viewport.height <= 0) return; // Not laid out (hidden tab, detached).
      store.setState({ viewport: { width: viewport.width, height: viewport.height } });
      refit();
    },
    maxSize,
    useWorkspace(workspaceId: string) {
      workspaceKey = `${STORAGE_KEY}.${workspaceId}`;
      let own: string | null = null;
      try {
        own = storage?.getItem(workspaceKey) ?? null;
      } catch {
        // Blocked storage: the current sizes stay.
      }
      if (own !== null) wanted = restoreLayout(own);
      refit();
    },
  });
}
