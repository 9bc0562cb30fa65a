// An optional spending limit per session (Settings, issue 21): dollars and/or tokens. Before each
// model call the loop checks whether that call would pass it; if so the turn stops with a message
// that says how much was spent and how to raise the limit, instead of spending it.
import type { ModelInfo } from "../../providers";
import type { MessageError, SessionRecord } from "../../storage";

export interface SessionBudget {
  /** Most dollars one session may cost (tokens at the model's catalogue prices). */
  dollars?: number;
  /** Most tokens one session may use (input, output and cache, as the providers count them). */
  tokens?: number;
}

export const BUDGET_ERROR_NAME = "BudgetError";

function sessionTokens(session: SessionRecord): number {
  const t = session.tokens;
  return t.input + t.output + t.cacheRead + t.cacheWrite;
}

function money(usd: number): string {
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/**
 * The error that stops the turn when the next call (its request, estimated at `nextTokens`) would
 * take the session past its budget; undefined when it fits or no budget is set. The reply's own
 * tokens are not known in advance, so a call that starts within the budget may end a little past it.
 */
export function budgetExceeded(
  session: SessionRecord,
  nextTokens: number,
  modelInfo: Pick<ModelInfo, "cost"> | undefined,
  budget: SessionBudget | undefined,
): MessageError | undefined {
  if (!budget) return undefined;
  const action = "Raise or remove the budget in Settings (Budget per session), then send a message to continue.";
  if (budget.tokens !== undefined && budget.tokens > 0) {
    const used = sessionTokens(session);
    if (used + nextTokens > budget.tokens) {
      return {
        name: BUDGET_ERROR_NAME,
        message: `Stopped before the next step: this session has used ${used.toLocaleString("en-US")} tokens, and the next request (about ${nextTokens.toLocaleString("en-US")} tokens) would pass its budget of ${budget.tokens.toLocaleString("en-US")} tokens.`,
        action,
      };
    }
  }
  if (budget.dollars !== undefined && budget.dollars > 0) {
    const nextCost = modelInfo ? (nextTokens * modelInfo.cost.input) / 1_000_000 : 0;
    if (session.cost + nextCost > budget.dollars) {
      return {
        name: BUDGET_ERROR_NAME,
        message: `Stopped before the next step: this session has cost ${money(session.cost)}, and the next request (about ${money(nextCost)}) would pass its budget of ${money(budget.dollars)}.`,
        action,
      };
    }
  }
  return undefined;
}
