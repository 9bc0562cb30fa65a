// The user's permission choices from Settings (docs/agent.md, "Permissions": users can change all of it): per kind of
// action, leave the default or always ask, allow or deny. Stored in this origin's IndexedDB in the
// agent's config form (`{"edit": "ask"}`), applied over the defaults as the user's rules.
import { createStore, type StoreApi } from "zustand/vanilla";
import { errorMessage, Serial } from "../../base";
import { reloadWhenStoredElsewhere, type SettingsStorage } from "./follow-other-tabs";
import { ruleset, type Rule } from "../../agent";

/** Settings key of the permission config. */
export const PERMISSION_SETTINGS_KEY = "permission";
/** Settings key of the sites commands may always reach ("Always allow ORIGIN" on a network ask). */
export const TRUSTED_ORIGINS_KEY = "network-origins";

export type PermissionChoice = "allow" | "ask" | "deny";

/** The permissions Settings offers, in the order shown, with the user-facing label. */
export const PERMISSION_KINDS: readonly { permission: string; label: string; defaultNote: string }[] = [
  { permission: "edit", label: "File edits", defaultNote: "allowed" },
  { permission: "bash", label: "Shell commands", defaultNote: "allowed; destructive ones such as rm -rf, git push and npm publish ask first" },
  {
    permission: "webfetch",
    label: "Web fetches",
    defaultNote: "ask first, showing the full address; “Always allow” then covers that one site for the session",
  },
  {
    permission: "websearch",
    label: "Web searches",
    defaultNote:
      "ask once per turn before the model is given the provider's own search (only for providers where you turned web search on); the provider runs the searches itself, so single queries cannot be asked about",
  },
  {
    permission: "network",
    label: "Sites reached by commands",
    defaultNote:
      "ask the first time a command the agent runs (curl, npm, pip, git, their scripts) reaches a new site, showing the address and the command; the npm registry, PyPI, your providers and the sites listed below need no ask",
  },
  { permission: "mcp", label: "MCP tools", defaultNote: "ask first, showing the arguments; “Always allow” then covers that one tool for the session" },
  { permission: "skill", label: "Skills", defaultNote: "allowed" },
];

const CHOICES: ReadonlySet<string> = new Set(["allow", "ask", "deny"]);

/** The config form the agent reads (`ruleset(config)`): one action per permission. */
export type PermissionChoices = Record<string, PermissionChoice>;

export interface PermissionSettingsState {
  choices: PermissionChoices;
  /** Origins ("https://example.com") commands may reach without an ask. */
  origins: string[];
}

export class PermissionSettings {
  readonly store: StoreApi<PermissionSettingsState> = createStore<PermissionSettingsState>(() => ({ choices: {}, origins: [] }));

  private readonly writes = new Serial();

  constructor(private readonly storage: SettingsStorage) {
    reloadWhenStoredElsewhere(storage, [PERMISSION_SETTINGS_KEY, TRUSTED_ORIGINS_KEY], () => this.load());
  }

  /** Reads what is stored (in the write queue: a read never lands over a change made after it). */
  load(): Promise<void> {
    return this.writes.run(async () => {
      const [choices, origins] = await Promise.all([
        this.storage.settings.get<unknown>(PERMISSION_SETTINGS_KEY),
        this.storage.settings.get<unknown>(TRUSTED_ORIGINS_KEY),
      ]);
      this.store.setState({ choices: restorePermissionChoices(choices), origins: restoreOrigins(origins) });
    });
  }

  get choices(): PermissionChoices {
    return this.store.getState().choices;
  }

  /** The user's rules: one per permission chosen, then an allow for each trusted site. */
  rules(): Rule[] {
    const { choices, origins } = this.store.getState();
    return [...ruleset(choices), ...origins.map((origin): Rule => ({ permission: "network", pattern: origin, action: "allow" }))];
  }

  /** Lets commands reach `origin` without an ask, from now on (stored). */
  trustOrigin(origin: string): Promise<void> {
    return this.setOrigins((origins) => (origins.includes(origin) ? origins : [...origins, origin]));
  }

  /** Takes `origin` off the trusted sites: commands ask again before reaching it. */
  distrustOrigin(origin: string): Promise<void> {
    return this.setOrigins((origins) => origins.filter((o) => o !== origin));
  }

  private setOrigins(change: (origins: string[]) => string[]): Promise<void> {
    return this.writes.run(async () => {
      const origins = change(this.store.getState().origins);
      try {
        await this.storage.settings.put(TRUSTED_ORIGINS_KEY, origins);
      } catch (error) {
        throw new Error(`The list of trusted sites could not be saved: ${errorMessage(error)}. Check that this site may store data, then try again.`, { cause: error });
      }
      this.store.setState({ origins });
    });
  }

  /** Sets one permission; undefined goes back to the default (no user rule). */
  set(permission: string, choice: PermissionChoice | undefined): Promise<void> {
    return this.writes.run(async () => {
      const choices: PermissionChoices = { ...this.choices };
      if (choice) choices[permission] = choice;
      else delete choices[permission];
      try {
        await this.storage.settings.put(PERMISSION_SETTINGS_KEY, choices);
      } catch (error) {
        throw new Error(`The permission settings could not be saved: ${errorMessage(error)}. Check that this site may store data, then try again.`, { cause: error });
      }
      this.store.setState({ choices });
    });
  }
}

/** Keeps only known permissions with valid actions (stored data is untrusted input). */
export function restorePermissionChoices(value: unknown): PermissionChoices {
  const out: PermissionChoices = {};
  if (!value || typeof value !== "object" || Array.isArray(value)) return out;
  for (const { permission } of PERMISSION_KINDS) {
    const choice = (value as Record<string, unknown>)[permission];
    if (typeof choice === "string" && CHOICES.has(choice)) out[permission] = choice as PermissionChoice;
  }
  return out;
}

/** Keeps only well-formed http(s) origins (stored data is untrusted input). */
export function restoreOrigins(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== "string") continue;
    try {
      const url = new URL(item);
      if ((url.protocol === "http:" || url.protocol === "https:") && url.origin === item && !out.includes(item)) out.push(item);
    } catch {
      // not a URL: dropped
    }
  }
  return out;
}
