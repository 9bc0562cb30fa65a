// Live collaboration (issue 33): who else is in the synced workspace. Each peer publishes, in the
// provider's awareness (Yjs's presence protocol, relayed by the server, never stored), its name and
// colour (`user`) and the file it has open (`openPath`); y-monaco adds its cursor (`selection`).
// Everything read from a peer's awareness is untrusted: it is validated here before the editor's
// CSS or the file tree shows it.
import { z } from "zod";
import { MAX_SYNC_NAME } from "../../runtime";
import type { Disposable } from "../../base";
import type { EditorDocuments, Peer } from "../editor/editor-documents";

/** What of the provider's awareness this needs (y-protocols' Awareness). */
export interface AwarenessLike {
  readonly clientID: number;
  getStates(): Map<number, Record<string, unknown>>;
  setLocalStateField(field: string, value: unknown): void;
  on(event: "change", listener: () => void): void;
  off(event: "change", listener: () => void): void;
}

/** Distinct, readable on the dark theme; a peer's colour is one of these or a #rrggbb it sent. */
const PALETTE = ["#e06c75", "#61afef", "#98c379", "#e5c07b", "#c678dd", "#56b6c2", "#d19a66", "#be5046"];

export function colorFor(clientId: number): string {
  return PALETTE[Math.abs(clientId) % PALETTE.length]!;
}

/** The name shown when none is set: "Guest" and four digits of the connection's id. */
export function guestName(clientId: number): string {
  return `Guest ${String(Math.abs(clientId) % 10_000).padStart(4, "0")}`;
}

const peerState = z.object({
  user: z.object({ name: z.string().trim().min(1).max(200), color: z.string().optional() }),
  openPath: z.string().max(4096).nullish(),
});

/** The other peers in `states` (the local one left out), validated; a state without a user is skipped. */
export function peersFrom(states: Map<number, Record<string, unknown>>, ownId: number): Peer[] {
  const peers: Peer[] = [];
  for (const [id, state] of states) {
    if (id === ownId) continue;
    const parsed = peerState.safeParse(state);
    if (!parsed.success) continue;
    const { user, openPath } = parsed.data;
    const color = user.color && /^#[0-9a-f]{6}$/i.test(user.color) ? user.color : colorFor(id);
    peers.push({ id, name: user.name.slice(0, MAX_SYNC_NAME), color, ...(openPath ? { openPath } : {}) });
  }
  return peers.sort((a, b) => a.id - b.id);
}

/**
 * Publishes this peer's name, colour and open file, and keeps `documents.live.peers` current.
 * Dispose to stop (the peers list empties; the provider's own teardown removes the local state).
 */
export function bindPresence(awareness: AwarenessLike, documents: EditorDocuments, displayName: string): Disposable {
  const name = displayName.trim() || guestName(awareness.clientID);
  awareness.setLocalStateField("user", { name, color: colorFor(awareness.clientID) });
  const publishOpen = () => awareness.setLocalStateField("openPath", documents.active ?? null);
  publishOpen();
  let lastActive = documents.active;
  const unsubscribe = documents.store.subscribe((state) => {
    if (state.active === lastActive) return;
    lastActive = state.active;
    publishOpen();
  });
  const update = () => documents.live.setState({ peers: peersFrom(awareness.getStates(), awareness.clientID) });
  update();
  awareness.on("change", update);
  return {
    dispose: () => {
      unsubscribe();
      awareness.off("change", update);
      documents.live.setState({ peers: [] });
    },
  };
}
