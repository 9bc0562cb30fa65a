// One turn of a session at a time across devices (issue 33, docs/architecture.md "Sync"): the
// devices' counterpart of the tabs' Web Lock. Claims live in the workspace's document:
//   doc.getMap("turns")      `${sessionId} ${device}` -> TurnClaim (each device writes only its own keys)
//   doc.getMap("turnStops")  claim nonce -> { by } (another device asks the running one to stop)
// Taking a session: refused at once while another device's live claim is there; otherwise the
// device writes a "claiming" claim, waits until the server has it plus SETTLE_MS (the server
// answers a writer before it relays the change to the others, so a concurrent claim may still be
// on its way), then looks again: a rival that is running, or claiming with a smaller nonce, wins
// and this device withdraws. Both sides see the same claims and decide the same way, so exactly
// one runs. The winner marks its claim "running" and renews it every HEARTBEAT_MS; a claim not
// renewed for EXPIRE_MS (by the watcher's own clock: devices' clocks differ) is of a device that
// went away, and no longer holds the session. Offline, a device runs its turns (no one to ask).
import type * as Y from "yjs";
import { Emitter, UserFacingError, toHex, type Disposable } from "../../base";

export interface TurnClaim {
  session: string;
  device: string;
  /** The device's name as its user sees it ("Chrome on Linux"). */
  name: string;
  nonce: string;
  state: "claiming" | "running";
  /** The claimer's clock, for people; liveness uses the watcher's clock. */
  at: number;
}

export interface TurnHolder {
  name: string;
  nonce: string;
  state: TurnClaim["state"];
}

export const HEARTBEAT_MS = 5_000;
export const EXPIRE_MS = 15_000;
export const SETTLE_MS = 300;
/** How long a reply whose turn ended on another device is not taken for an interrupted one. */
export const ENDED_GRACE_MS = 5_000;

export interface TurnLeaseOptions {
  /** This device: unique per page (tabs of one browser are kept apart by their Web Lock anyway). */
  device: string;
  name: string;
  /** Resolves once the server has everything written so far (immediately when offline). */
  acknowledged(): Promise<void>;
  now?: () => number;
  heartbeatMs?: number;
  expireMs?: number;
  settleMs?: number;
}

export function turnElsewhereMessage(name: string): string {
  return `This session is running a turn on ${name}. Follow it here (the chat updates as it goes) or stop it, then send your message.`;
}

const key = (sessionId: string, device: string) => `${sessionId} ${device}`;

function isClaim(value: unknown): value is TurnClaim {
  if (!value || typeof value !== "object") return false;
  const c = value as Record<string, unknown>;
  return typeof c.session === "string" && typeof c.device === "string" && typeof c.name === "string" && typeof c.nonce === "string" && (c.state === "claiming" || c.state === "running");
}

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return toHex(bytes);
}

export class TurnLeases implements Disposable {
  readonly claims: Y.Map<unknown>;
  readonly stops: Y.Map<unknown>;
  private readonly now: () => number;
  private readonly heartbeatMs: number;
  private readonly expireMs: number;
  private readonly settleMs: number;
  /** When this page last saw each claim change (its own clock). */
  private readonly seen = new Map<string, number>();
  /**
   * When a turn another device ran here ended (session -> this page's clock): its last records may
   * still be on their way (session sync stores remote records in batches), so for a short while the
   * reply is not yet an interrupted one.
   */
  private readonly ended = new Map<string, number>();
  /** Turns running here: nonce -> the session and what to call to stop it. */
  private readonly running = new Map<string, { sessionId: string; stop: () => void }>();
  private readonly changed = new Emitter<void>();
  private readonly ticker: ReturnType<typeof setInterval>;
  private readonly observers: Array<() => void> = [];
  private readonly heartbeats = new Set<ReturnType<typeof setInterval>>();

  constructor(
    readonly doc: Y.Doc,
    private readonly options: TurnLeaseOptions,
  ) {
    this.claims = doc.getMap("turns");
    this.stops = doc.getMap("turnStops");
    this.now = options.now ?? (() => Date.now());
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.expireMs = options.expireMs ?? EXPIRE_MS;
    this.settleMs = options.settleMs ?? SETTLE_MS;
    for (const k of this.claims.keys()) this.seen.set(k, this.now());
    const onClaims = (event: Y.YMapEvent<unknown>) => {
      for (const k of event.keysChanged) {
        if (this.claims.has(k)) this.seen.set(k, this.now());
        else {
          this.seen.delete(k);
          const old = event.changes.keys.get(k)?.oldValue as unknown;
          if (isClaim(old) && old.device !== this.options.device && old.state === "running") this.ended.set(old.session, this.now());
        }
      }
      this.yieldToEarlierRunner();
      this.changed.fire();
    };
    const onStops = (event: Y.YMapEvent<unknown>) => {
      for (const nonce of event.keysChanged) if (this.stops.has(nonce)) this.running.get(nonce)?.stop();
    };
    this.claims.observe(onClaims);
    this.stops.observe(onStops);
    this.observers.push(
      () => this.claims.unobserve(onClaims),
      () => this.stops.unobserve(onStops),
    );
    // Expiry is a matter of time passing: watchers re-read at every heartbeat.
    this.ticker = setInterval(() => {
      if (this.claims.size > 0) this.changed.fire();
    }, this.heartbeatMs);
  }

  /** Fired when a claim changes or may have expired. */
  readonly onDidChange = this.changed.event;

  private live(): TurnClaim[] {
    const now = this.now();
    const out: TurnClaim[] = [];
    for (const [k, value] of this.claims) {
      if (!isClaim(value) || k !== key(value.session, value.device)) continue;
      const seen = this.seen.get(k) ?? now;
      if (value.device === this.options.device || now - seen < this.expireMs) out.push(value);
    }
    return out;
  }

  /** Another device's live claim on the session (running, or about to), if any. */
  holder(sessionId: string): TurnHolder | undefined {
    const rival = this.live().find((c) => c.session === sessionId && c.device !== this.options.device);
    return rival && { name: rival.name, nonce: rival.nonce, state: rival.state };
  }

  /** True while another device's turn of the session ended less than `ENDED_GRACE_MS` ago. */
  endedRecently(sessionId: string): boolean {
    const at = this.ended.get(sessionId);
    return at !== undefined && this.now() - at < ENDED_GRACE_MS;
  }

  /** Sessions running a turn on other devices, with the device's name. */
  runningElsewhere(): Map<string, string> {
    const out = new Map<string, string>();
    for (const c of this.live()) if (c.device !== this.options.device && c.state === "running") out.set(c.session, c.name);
    return out;
  }

  /** Asks the device running the session's turn to stop it. False when none is running elsewhere. */
  requestStop(sessionId: string): boolean {
    const holder = this.holder(sessionId);
    if (!holder) return false;
    this.stops.set(holder.nonce, { by: this.options.name });
    return true;
  }

  /**
   * Runs `turn` holding the session across devices; refuses (UserFacingError "turn-elsewhere")
   * while another device holds it or wins the claim. `onStop` is called when another device asks.
   */
  async run<T>(sessionId: string, turn: () => Promise<T>, onStop: () => void): Promise<T> {
    const rival = this.holder(sessionId);
    if (rival) throw new UserFacingError(turnElsewhereMessage(rival.name), "turn-elsewhere");
    const k = key(sessionId, this.options.device);
    const claim: TurnClaim = { session: sessionId, device: this.options.device, name: this.options.name, nonce: randomNonce(), state: "claiming", at: this.now() };
    this.claims.set(k, claim);
    await this.options.acknowledged();
    await new Promise((resolve) => setTimeout(resolve, this.settleMs));
    const winner = this.live()
      .filter((c) => c.session === sessionId && c.device !== this.options.device)
      .find((c) => c.state === "running" || c.nonce < claim.nonce);
    if (winner) {
      if (this.ownClaim(k, claim.nonce)) this.claims.delete(k);
      throw new UserFacingError(turnElsewhereMessage(winner.name), "turn-elsewhere");
    }
    this.claims.set(k, { ...claim, state: "running", at: this.now() });
    this.running.set(claim.nonce, { sessionId, stop: onStop });
    const heartbeat = setInterval(() => {
      if (this.ownClaim(k, claim.nonce)) this.claims.set(k, { ...claim, state: "running", at: this.now() });
    }, this.heartbeatMs);
    this.heartbeats.add(heartbeat);
    try {
      return await turn();
    } finally {
      clearInterval(heartbeat);
      this.heartbeats.delete(heartbeat);
      this.running.delete(claim.nonce);
      this.doc.transact(() => {
        if (this.ownClaim(k, claim.nonce)) this.claims.delete(k);
        if (this.stops.has(claim.nonce)) this.stops.delete(claim.nonce);
      });
    }
  }

  /**
   * Two devices both running one session's turn: possible only when a rival's claim took longer
   * than the settle time to arrive (a slow link). The same rule as at the start decides, late: the
   * turn with the larger nonce stops as soon as this page sees the other.
   */
  private yieldToEarlierRunner(): void {
    if (this.running.size === 0) return;
    const rivals = this.live().filter((c) => c.device !== this.options.device && c.state === "running");
    for (const [nonce, turn] of [...this.running]) {
      if (!rivals.some((c) => c.session === turn.sessionId && c.nonce < nonce)) continue;
      this.running.delete(nonce);
      turn.stop();
    }
  }

  private ownClaim(k: string, nonce: string): boolean {
    const current = this.claims.get(k);
    return isClaim(current) && current.nonce === nonce;
  }

  /**
   * Drops this page's claims now (the page is going away: its turns end with it), so other devices
   * need not wait for them to expire. A crash leaves them to expire.
   */
  releaseAll(): void {
    this.doc.transact(() => {
      for (const [k, value] of this.claims) if (isClaim(value) && value.device === this.options.device) this.claims.delete(k);
    });
  }

  dispose(): void {
    clearInterval(this.ticker);
    for (const heartbeat of this.heartbeats) clearInterval(heartbeat);
    this.heartbeats.clear();
    for (const off of this.observers.splice(0)) off();
    this.releaseAll();
    this.changed.dispose();
  }
}
