// Session search beyond titles: which sessions have the query in their messages' text (what the user
// wrote and what the model answered, not tool output). Each session's text is read once and kept
// until the session changes (its updatedAt), so typing a query does not reload every transcript.
import type { PartRecord, SessionRecord } from "../../storage";

export interface SessionTextSource {
  getMessages(sessionId: string): Promise<Array<{ parts: PartRecord[] }>>;
}

/** Searches message text of sessions, caching each transcript's text by session and version. */
export class SessionTextSearch {
  private readonly cache = new Map<string, { version: number; text: string }>();

  constructor(private readonly source: SessionTextSource) {}

  /** Ids of the sessions whose messages contain `query` (case-insensitive). A transcript that fails to load is skipped. */
  async matching(sessions: readonly SessionRecord[], query: string): Promise<Set<string>> {
    const q = query.trim().toLowerCase();
    const out = new Set<string>();
    if (q === "") return out;
    await Promise.all(
      sessions.map(async (session) => {
        const text = await this.textOf(session).catch(() => "");
        if (text.includes(q)) out.add(session.id);
      }),
    );
    return out;
  }

  private async textOf(session: SessionRecord): Promise<string> {
    const cached = this.cache.get(session.id);
    if (cached && cached.version === session.updatedAt) return cached.text;
    const messages = await this.source.getMessages(session.id);
    const text = messages
      .flatMap((m) => m.parts)
      .map((p) => (p.type === "text" || p.type === "reasoning" ? p.text : ""))
      .join("\n")
      .toLowerCase();
    this.cache.set(session.id, { version: session.updatedAt, text });
    return text;
  }
}
