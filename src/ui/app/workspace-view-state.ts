// Continuity: what a workspace's window looked like (open tabs, the active one, each tab's cursor and
// scroll, the side view shown) is remembered per workspace in localStorage and comes back after a
// reload. localStorage because it is synchronous: the last state is written on pagehide, when an
// IndexedDB transaction may not finish. Pane sizes are remembered by the layout store.

/** The most tabs remembered (the first ones, in tab order). */
export const MAX_REMEMBERED_TABS = 50;
const KEY_PREFIX = "webcode.view.";

export interface WorkspaceViewState {
  tabs: string[];
  active?: string;
  /** Monaco view states (cursor, selections, scroll) by path; opaque JSON. */
  viewStates: Record<string, unknown>;
  /** The side panel tab shown (contribution id). */
  panel?: string;
}

type KeyValueStore = Pick<globalThis.Storage, "getItem" | "setItem" | "removeItem">;

function keyFor(workspaceId: string): string {
  return KEY_PREFIX + workspaceId;
}

/** Reads a workspace's remembered view, dropping anything malformed (the value comes from outside the app). */
export function loadViewState(store: KeyValueStore | undefined, workspaceId: string): WorkspaceViewState {
  const empty: WorkspaceViewState = { tabs: [], viewStates: {} };
  let raw: string | null = null;
  try {
    raw = store?.getItem(keyFor(workspaceId)) ?? null;
  } catch {
    return empty;
  }
  if (!raw) return empty;
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof WorkspaceViewState, unknown>>;
    const tabs = Array.isArray(value.tabs) ? value.tabs.filter((t): t is string => typeof t === "string").slice(0, MAX_REMEMBERED_TABS) : [];
    const viewStates: Record<string, unknown> = {};
    if (value.viewStates && typeof value.viewStates === "object") {
      for (const [path, state] of Object.entries(value.viewStates)) if (tabs.includes(path) && state && typeof state === "object") viewStates[path] = state;
    }
    return {
      tabs,
      active: typeof value.active === "string" && tabs.includes(value.active) ? value.active : undefined,
      viewStates,
      panel: typeof value.panel === "string" ? value.panel : undefined,
    };
  } catch {
    return empty;
  }
}

export function saveViewState(store: KeyValueStore | undefined, workspaceId: string, state: WorkspaceViewState): void {
  try {
    store?.setItem(keyFor(workspaceId), JSON.stringify({ ...state, tabs: state.tabs.slice(0, MAX_REMEMBERED_TABS) }));
  } catch {
    // Full or blocked storage: forgetting the tabs is not worth bothering the user about.
  }
}

export function forgetViewState(store: KeyValueStore | undefined, workspaceId: string): void {
  try {
    store?.removeItem(keyFor(workspaceId));
  } catch {
    // as above
  }
}

/** The browser's localStorage when it can be used (it throws in some privacy modes). */
export function browserViewStore(): KeyValueStore | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
