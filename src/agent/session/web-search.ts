// The provider's own web search (OpenAI, Anthropic, Google) offered to the model, behind the
// `websearch` permission. The provider runs these searches inside the request, with no round trip
// through webcode, so a search cannot be asked about one by one like webfetch: what is gated is
// giving the model the tool. With "ask" (the default), the first request of a turn that would carry
// it waits for the user; "Allow once" lets every request of that turn carry it, "Always allow" the
// rest of the session, and "Reject" runs the turn without it (the model answers without searching).
// "deny" never offers it. See docs/architecture.md, "Web search".
import type { ToolSet } from "ai";
import type { ModelRef } from "../../storage";
import type { Rule } from "../permission";
import { PermissionRejectedError } from "../tools/tool";
import type { SessionEnv } from "./env";

/** The permission that gates the provider's web search. */
export const WEBSEARCH_PERMISSION = "websearch";

export interface WebSearchInput {
  sessionId: string;
  /** The user message the turn answers: one answer per turn. */
  turnId: string;
  model: ModelRef;
  rules: Rule[];
  limits?: Rule[];
  /** Whether the model takes tools at all. */
  supportsTools: boolean;
  /** The turn's own tool switches (`websearch: false` leaves it out). */
  toggles?: Record<string, boolean>;
  abort: AbortSignal;
}

/**
 * Remembers, per turn, what the user answered, so a turn of many steps asks once. One per running
 * loop (a turn never spans two loops without a new answer).
 */
export class WebSearchGate {
  private readonly answers = new Map<string, boolean>();

  constructor(private readonly env: Pick<SessionEnv, "providers" | "permissions">) {}

  /** The provider tools to add to this request (undefined: none), asking the user first where needed. */
  async tools(input: WebSearchInput): Promise<ToolSet | undefined> {
    if (!input.supportsTools || input.toggles?.[WEBSEARCH_PERMISSION] === false) return undefined;
    const offer = await this.env.providers.webSearch?.(input.model);
    if (!offer) return undefined;
    const action = this.env.permissions.check(input.sessionId, WEBSEARCH_PERMISSION, "*", input.rules, input.limits);
    if (action === "deny") return undefined;
    if (action === "allow") return offer.tools;
    const known = this.answers.get(input.turnId);
    if (known !== undefined) return known ? offer.tools : undefined;
    try {
      await this.env.permissions.ask({
        sessionId: input.sessionId,
        request: {
          permission: WEBSEARCH_PERMISSION,
          patterns: [],
          always: ["*"],
          metadata: {
            provider: offer.provider,
            detail: `${offer.provider} runs the searches itself while it answers (billed by ${offer.provider} per search). The model picks the queries, and they are not shown before they run; what it searched for and found is shown in the reply.`,
          },
        },
        rules: input.rules,
        ...(input.limits && { limits: input.limits }),
        signal: input.abort,
      });
      this.answers.set(input.turnId, true);
      return offer.tools;
    } catch (error) {
      if (error instanceof PermissionRejectedError) {
        this.answers.set(input.turnId, false);
        return undefined;
      }
      // Aborted while asking: the step that follows sees the abort.
      if (input.abort.aborted) return undefined;
      throw error;
    }
  }
}
