// The user's spending limit per session (Settings, issue 21): dollars and/or tokens. Stored in this
// origin's IndexedDB; the agent reads it before each model call and stops a turn that would pass it.
import { createStore, type StoreApi } from "zustand/vanilla";
import { errorMessage, Serial } from "../../base";
import { reloadWhenStoredElsewhere, type SettingsStorage } from "./follow-other-tabs";

/** Settings key of the budget. */
export const BUDGET_SETTINGS_KEY = "budget";

export interface SessionBudgetChoice {
  dollars?: number;
  tokens?: number;
}

export class BudgetSettings {
  readonly store: StoreApi<{ budget: SessionBudgetChoice }> = createStore<{ budget: SessionBudgetChoice }>(() => ({ budget: {} }));

  private readonly writes = new Serial();

  constructor(private readonly storage: SettingsStorage) {
    reloadWhenStoredElsewhere(storage, [BUDGET_SETTINGS_KEY], () => this.load());
  }

  /** Reads what is stored (in the write queue: a read never lands over a change made after it). */
  load(): Promise<void> {
    return this.writes.run(async () => {
      this.store.setState({ budget: restoreBudget(await this.storage.settings.get<unknown>(BUDGET_SETTINGS_KEY)) });
    });
  }

  /** The budget, or undefined when neither limit is set. */
  get budget(): SessionBudgetChoice | undefined {
    const { budget } = this.store.getState();
    return budget.dollars === undefined && budget.tokens === undefined ? undefined : budget;
  }

  /** Sets one limit; undefined removes it. */
  async set(kind: keyof SessionBudgetChoice, value: number | undefined): Promise<void> {
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new Error(`The ${kind === "dollars" ? "dollar" : "token"} budget must be a number above 0, or empty for no limit.`);
    }
    return this.writes.run(async () => {
      const budget: SessionBudgetChoice = { ...this.store.getState().budget };
      if (value === undefined) delete budget[kind];
      else budget[kind] = value;
      try {
        await this.storage.settings.put(BUDGET_SETTINGS_KEY, budget);
      } catch (error) {
        throw new Error(`The budget could not be saved: ${errorMessage(error)}. Check that this site may store data, then try again.`, { cause: error });
      }
      this.store.setState({ budget });
    });
  }
}

/** Keeps only positive finite limits (stored data is untrusted input). */
export function restoreBudget(value: unknown): SessionBudgetChoice {
  const out: SessionBudgetChoice = {};
  if (!value || typeof value !== "object" || Array.isArray(value)) return out;
  for (const kind of ["dollars", "tokens"] as const) {
    const limit = (value as Record<string, unknown>)[kind];
    if (typeof limit === "number" && Number.isFinite(limit) && limit > 0) out[kind] = limit;
  }
  return out;
}
