// The chat panel's view state, fed only by the agent's event bus (and one snapshot load per
// session). A pure reducer over bus events, so a frame's worth of events is applied in one update.
import { createStore, type StoreApi } from "zustand/vanilla";
import type { MessageRecord, PartRecord, SessionRecord } from "../../storage";
import type { AgentEvent, MessageWithParts, PendingPermission, PendingQuestion, SessionStatus } from "./agent-port";

/** A message and its parts; replaced (new object) whenever either changes, so views can memo on it. */
export interface MessageEntry {
  info: MessageRecord;
  parts: PartRecord[];
}

export interface ChatState {
  sessions: Record<string, SessionRecord>;
  /** Whether the session list was loaded once. */
  sessionsLoaded: boolean;
  /** Messages per session, ordered by id (ids are time-ordered). Absent = not loaded. */
  messages: Record<string, MessageEntry[]>;
  status: Record<string, SessionStatus>;
  permissions: Record<string, PendingPermission>;
  questions: Record<string, PendingQuestion>;
}

export type ChatAction =
  | AgentEvent
  | { name: "sessions-loaded"; payload: { sessions: SessionRecord[] } }
  /** Start capturing a session's events (before its snapshot is read, so nothing falls between). */
  | { name: "messages-loading"; payload: { sessionId: string } }
  /** Forget a session's messages (before a reload, e.g. after unrevert brings hidden ones back). */
  | { name: "messages-unloaded"; payload: { sessionId: string } }
  | { name: "messages-loaded"; payload: { sessionId: string; messages: MessageWithParts[] } }
  | { name: "pending-loaded"; payload: { permissions: PendingPermission[]; questions: PendingQuestion[] } };

export function initialChatState(): ChatState {
  return { sessions: {}, sessionsLoaded: false, messages: {}, status: {}, permissions: {}, questions: {} };
}

const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Index of `id` in a list sorted by id, or -(insertion point) - 1. Searches from the end first: updates are nearly always to the newest. */
function findSorted<T extends { id: string }>(list: readonly T[], id: string): number {
  const last = list.length - 1;
  if (last >= 0 && list[last]!.id === id) return last;
  if (last < 0 || list[last]!.id < id) return -(last + 1) - 1;
  let lo = 0;
  let hi = last;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const midId = list[mid]!.id;
    if (midId === id) return mid;
    if (midId < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

function removeById<T extends { id: string }>(list: readonly T[], id: string): T[] {
  const index = findSorted(list, id);
  if (index < 0) return list as T[];
  const copy = list.slice();
  copy.splice(index, 1);
  return copy;
}

function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
}

/**
 * Applies actions to a state, copying only what changes. Mutates the draft containers it created
 * itself (`draft` tracks them) so a batch of 1,000 deltas costs about as much as one.
 */
export function reduceChat(state: ChatState, actions: readonly ChatAction[]): ChatState {
  if (actions.length === 0) return state;
  let next = state;
  // Per-session message lists already copied in this batch (safe to mutate in place).
  const ownedLists = new Set<MessageEntry[]>();
  const ownedEntries = new Set<MessageEntry>();
  const copyState = () => {
    if (next === state) next = { ...state };
    return next;
  };
  const messagesFor = (sessionId: string): MessageEntry[] | undefined => {
    const list = next.messages[sessionId];
    if (!list) return undefined;
    if (ownedLists.has(list)) return list;
    const copy = list.slice();
    ownedLists.add(copy);
    const s = copyState();
    s.messages = { ...s.messages, [sessionId]: copy };
    return copy;
  };
  const entryAt = (list: MessageEntry[], index: number): MessageEntry => {
    const entry = list[index]!;
    if (ownedEntries.has(entry)) return entry;
    const copy = { info: entry.info, parts: entry.parts.slice() };
    ownedEntries.add(copy);
    list[index] = copy;
    return copy;
  };

  for (const action of actions) {
    switch (action.name) {
      case "sessions-loaded": {
        const s = copyState();
        const sessions = { ...s.sessions };
        for (const session of action.payload.sessions) if (!sessions[session.id]) sessions[session.id] = session;
        s.sessions = sessions;
        s.sessionsLoaded = true;
        break;
      }
      case "session-created":
      case "session-updated": {
        const s = copyState();
        s.sessions = { ...s.sessions, [action.payload.session.id]: action.payload.session };
        break;
      }
      case "session-deleted": {
        const id = action.payload.sessionId;
        const s = copyState();
        s.sessions = withoutKey(s.sessions, id);
        s.messages = withoutKey(s.messages, id);
        s.status = withoutKey(s.status, id);
        break;
      }
      case "messages-unloaded": {
        const s = copyState();
        s.messages = withoutKey(s.messages, action.payload.sessionId);
        break;
      }
      case "messages-loading": {
        const { sessionId } = action.payload;
        if (next.messages[sessionId]) break;
        const s = copyState();
        const list: MessageEntry[] = [];
        ownedLists.add(list);
        s.messages = { ...s.messages, [sessionId]: list };
        break;
      }
      case "messages-loaded": {
        // Replaces the session's list; ChatSync replays the events that arrived during the load.
        const { sessionId, messages } = action.payload;
        const s = copyState();
        const loaded = messages.map((m) => ({ info: m.info, parts: m.parts.slice().sort(byId) })).sort((a, b) => byId(a.info, b.info));
        for (const entry of loaded) ownedEntries.add(entry);
        ownedLists.add(loaded);
        s.messages = { ...s.messages, [sessionId]: loaded };
        break;
      }
      case "message-updated": {
        const message = action.payload.message;
        const list = messagesFor(message.sessionId);
        if (!list) break;
        const index = list.findIndex((e) => e.info.id === message.id);
        if (index >= 0) entryAt(list, index).info = message;
        else {
          const entry = { info: message, parts: [] };
          ownedEntries.add(entry);
          insertEntry(list, entry);
        }
        break;
      }
      case "message-removed": {
        const list = messagesFor(action.payload.sessionId);
        if (!list) break;
        const index = list.findIndex((e) => e.info.id === action.payload.messageId);
        if (index >= 0) list.splice(index, 1);
        break;
      }
      case "part-updated": {
        const part = action.payload.part;
        const list = messagesFor(part.sessionId);
        if (!list) break;
        const index = lastIndexOfMessage(list, part.messageId);
        if (index < 0) break; // The message-updated event always comes first; a stray part is ignored.
        const entry = entryAt(list, index);
        const at = findSorted(entry.parts, part.id);
        if (at >= 0) entry.parts[at] = part;
        else entry.parts.splice(-at - 1, 0, part);
        break;
      }
      case "part-removed": {
        const list = messagesFor(action.payload.sessionId);
        if (!list) break;
        const index = lastIndexOfMessage(list, action.payload.messageId);
        if (index < 0) break;
        const entry = entryAt(list, index);
        entry.parts = removeById(entry.parts, action.payload.partId);
        break;
      }
      case "session-status": {
        const s = copyState();
        s.status = { ...s.status, [action.payload.sessionId]: action.payload.status };
        break;
      }
      case "permission-asked": {
        const s = copyState();
        s.permissions = { ...s.permissions, [action.payload.id]: action.payload };
        break;
      }
      case "permission-replied": {
        const s = copyState();
        s.permissions = withoutKey(s.permissions, action.payload.requestId);
        break;
      }
      case "question-asked": {
        const s = copyState();
        s.questions = { ...s.questions, [action.payload.id]: action.payload };
        break;
      }
      case "question-replied": {
        const s = copyState();
        s.questions = withoutKey(s.questions, action.payload.requestId);
        break;
      }
      case "pending-loaded": {
        const s = copyState();
        s.permissions = { ...s.permissions };
        s.questions = { ...s.questions };
        for (const p of action.payload.permissions) s.permissions[p.id] = p;
        for (const q of action.payload.questions) s.questions[q.id] = q;
        break;
      }
    }
  }
  return next;
}

function lastIndexOfMessage(list: readonly MessageEntry[], messageId: string): number {
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.info.id === messageId) return i;
  return -1;
}

function insertEntry(list: MessageEntry[], entry: MessageEntry): void {
  let i = list.length;
  while (i > 0 && list[i - 1]!.info.id > entry.info.id) i--;
  list.splice(i, 0, entry);
}

export type ChatStore = StoreApi<ChatState>;

export function createChatStore(): ChatStore {
  return createStore<ChatState>(() => initialChatState());
}

/** Applies actions to the store in one update (one render for the whole batch). */
export function dispatchChat(store: ChatStore, actions: readonly ChatAction[]): void {
  const current = store.getState();
  const next = reduceChat(current, actions);
  if (next !== current) store.setState(next, true);
}

/** Sessions newest first (by last update), top-level only unless `includeChildren`. */
export function sortedSessions(state: ChatState, includeChildren = false): SessionRecord[] {
  return Object.values(state.sessions)
    .filter((s) => includeChildren || !s.parentId)
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1));
}

/** The session an event is about (undefined for events about no single session's messages). */
export function actionSessionId(action: ChatAction): string | undefined {
  switch (action.name) {
    case "part-updated":
      return action.payload.part.sessionId;
    case "message-updated":
      return action.payload.message.sessionId;
    case "part-removed":
    case "message-removed":
      return action.payload.sessionId;
    default:
      return undefined;
  }
}
