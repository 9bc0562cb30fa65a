// The MCP servers and user skills Settings edits (issue 14). Servers, with their headers and OAuth
// tokens under `secret` (left out of backups like provider keys), are kept in this origin's
// IndexedDB; servers an opened workspace declares are added disabled with their source. With the
// keys' passphrase (Settings → Key protection) the secrets are sealed exactly like provider keys:
// locked until it is given, sealed again when it changes, stored as typed when it is removed.
import { createStore, type StoreApi } from "zustand/vanilla";
import { errorMessage, newId, Serial } from "../../base";
import {
  MCP_SETTINGS_KEY,
  mcpSecretFields,
  restoreMcpSecrets,
  restoreMcpServers,
  restoreMcpVault,
  sealedFieldsOf,
  splitMcpSecrets,
  storedMcpServers,
  type DeclaredServer,
  type McpOAuthState,
  type McpSecrets,
  type McpServerConfig,
  type UserSkill,
} from "../../agent";
import { WrongPassphraseError, openValue, sealValue, type KeyVault } from "../../providers";
import { reloadWhenStoredElsewhere, type SettingsStorage } from "./follow-other-tabs";
import type { SealedStore } from "./provider-settings";

export const USER_SKILLS_KEY = "skills";

export interface McpSettingsState {
  servers: McpServerConfig[];
  skills: UserSkill[];
  problems: string[];
  /** The servers' secrets are sealed by the keys' passphrase, not given yet in this page load. */
  locked: boolean;
}

function restoreSkills(value: unknown): UserSkill[] {
  const list = (value as { skills?: unknown } | undefined)?.skills;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (s): s is UserSkill => !!s && typeof s === "object" && ["name", "description", "content"].every((k) => typeof (s as Record<string, unknown>)[k] === "string"),
  );
}

/** The keys' passphrase, owned by the provider settings (Settings → Key protection). */
export interface McpKeyGate {
  /** Resolves once the passphrase has been given in this page load (asking for it); throws when it is not. */
  requireKeys(): Promise<void>;
}

export class McpSettings implements SealedStore {
  readonly store: StoreApi<McpSettingsState> = createStore<McpSettingsState>(() => ({ servers: [], skills: [], problems: [], locked: false }));
  /** Writes one after another, each from the state it changes. */
  private readonly writes = new Serial();
  /** The sealed secrets as stored, while they are locked. */
  private vault?: KeyVault;
  /** The keys' passphrase once given (or set) in this page load: every write seals with it. */
  private passphrase?: string;
  /** Declared servers with headers that arrived while locked: added once unlocked. */
  private pendingDeclared: Array<{ workspaceId: string; workspaceName: string; declared: readonly DeclaredServer[] }> = [];

  constructor(
    private readonly storage: SettingsStorage,
    private readonly keys?: McpKeyGate,
  ) {
    reloadWhenStoredElsewhere(storage, [MCP_SETTINGS_KEY, USER_SKILLS_KEY], async (changed) => {
      // What another tab stored, read in one job (nothing queued here sees a half-read state).
      if (!changed.includes(MCP_SETTINGS_KEY)) return this.writes.run(() => this.readSkills());
      await this.writes.run(() => this.read(this.passphrase));
      if (!this.locked) await this.addPending();
    });
  }

  /** Reads what is stored (in the write queue: a read never lands over a change made after it). */
  load(): Promise<void> {
    return this.writes.run(() => this.read(undefined));
  }

  /**
   * Reads the stored servers and skills into the store at once. With the passphrase this tab
   * unlocked with (another tab stored a change), credentials it still opens stay open, so the
   * servers using them stay connected.
   */
  private async read(passphrase: string | undefined): Promise<void> {
    const problems: string[] = [];
    const stored = await this.storage.settings.get<unknown>(MCP_SETTINGS_KEY);
    let servers = restoreMcpServers(stored, (p) => problems.push(p));
    const vault = restoreMcpVault(stored, (p) => problems.push(p));
    let secrets: McpSecrets | undefined;
    if (vault && passphrase !== undefined) {
      try {
        secrets = restoreMcpSecrets(await openValue(vault, passphrase));
      } catch (error) {
        if (!(error instanceof WrongPassphraseError)) throw error;
      }
    }
    if (vault && secrets) {
      const open = secrets;
      servers = servers.map((server) => (open[server.id] ? { ...server, secret: open[server.id]! } : server));
    } else if (vault) {
      const sealed = sealedFieldsOf(vault);
      servers = servers.map((server) => (sealed[server.id] ? { ...server, sealed: sealed[server.id]! } : server));
    }
    const skills = restoreSkills(await this.storage.settings.get<unknown>(USER_SKILLS_KEY));
    const locked = vault !== undefined && secrets === undefined;
    this.vault = locked ? vault : undefined;
    this.passphrase = secrets ? passphrase : undefined;
    this.store.setState({ servers, skills, problems, locked });
  }

  private async readSkills(): Promise<void> {
    this.store.setState({ skills: restoreSkills(await this.storage.settings.get<unknown>(USER_SKILLS_KEY)) });
  }

  get servers(): McpServerConfig[] {
    return this.store.getState().servers;
  }

  get skills(): UserSkill[] {
    return this.store.getState().skills;
  }

  private get locked(): boolean {
    return this.store.getState().locked;
  }

  /** Changes the server list as a function of the current one, then stores it (sealed under the passphrase when there is one). */
  private update(change: (servers: McpServerConfig[]) => McpServerConfig[]): Promise<void> {
    return this.writes.run(async () => {
      const servers = change(this.servers);
      await this.write(servers);
      this.store.setState({ servers });
    });
  }

  private async write(servers: readonly McpServerConfig[]): Promise<void> {
    try {
      let vault: KeyVault | undefined;
      if (this.passphrase !== undefined) {
        const { secrets } = splitMcpSecrets(servers);
        vault = await sealValue(secrets, this.passphrase, mcpSecretFields(secrets));
      } else if (this.locked) {
        // Still locked: the sealed secrets stay as they are (no entry holds one in the clear).
        vault = this.vault;
      }
      await this.storage.settings.put(MCP_SETTINGS_KEY, storedMcpServers(servers, vault));
    } catch (error) {
      throw new Error(`The MCP servers could not be saved: ${errorMessage(error)}. Check that this site may store data, then try again.`, { cause: error });
    }
  }

  /** While locked, a change that brings secrets waits for the passphrase (asked for) first. */
  private async unlockedFor(secret: McpServerConfig["secret"] | "always"): Promise<void> {
    if (!this.locked) return;
    if (secret !== "always" && !secret?.headers && !secret?.oauth) return;
    if (!this.keys) throw new Error("The MCP server credentials are locked by your passphrase: unlock them in Settings → Key protection.");
    await this.keys.requireKeys();
    if (this.locked) throw new Error("The MCP server credentials could not be unlocked with your passphrase.");
  }

  /** Adds or replaces a server (by id); throws when another server has its name. */
  async save(server: McpServerConfig): Promise<void> {
    await this.unlockedFor(this.servers.find((s) => s.id === server.id)?.sealed ? "always" : server.secret);
    const { sealed: _sealed, ...clean } = server;
    return this.update((servers) => {
      if (servers.some((s) => s.id !== clean.id && s.name === clean.name)) throw new Error(`Another MCP server is already named "${clean.name}": tool names must stay apart. Choose another name.`);
      const exists = servers.some((s) => s.id === clean.id);
      return exists ? servers.map((s) => (s.id === clean.id ? withOAuthOf(s, clean) : s)) : [...servers, clean];
    });
  }

  setEnabled(id: string, enabled: boolean): Promise<void> {
    return this.update((servers) => servers.map((s) => (s.id === id ? { ...s, enabled } : s)));
  }

  remove(id: string): Promise<void> {
    return this.update((servers) => servers.filter((s) => s.id !== id));
  }

  /** Stores OAuth state (tokens, client registration) of a server; undefined signs out. */
  /**
   * Changes a server's OAuth state as a function of its current one, inside the write queue: a
   * background token refresh and a sign-in in Settings cannot write each other's older state back.
   */
  async updateOAuth(id: string, change: (current: McpOAuthState | undefined) => McpOAuthState | undefined): Promise<void> {
    await this.unlockedFor("always");
    return this.update((servers) =>
      servers.map((s) => {
        if (s.id !== id) return s;
        const secret = { ...s.secret };
        const oauth = change(s.secret?.oauth);
        if (oauth) secret.oauth = oauth;
        else delete secret.oauth;
        return { ...s, secret };
      }),
    );
  }

  /** The passphrase was given: the sealed secrets join their servers (which then connect). */
  unlocked(passphrase: string): Promise<void> {
    return this.writes.run(async () => {
      if (this.locked && this.vault) {
        let secrets: McpSecrets;
        try {
          secrets = restoreMcpSecrets(await openValue(this.vault, passphrase));
        } catch (error) {
          if (!(error instanceof WrongPassphraseError)) throw error;
          this.store.setState((state) => ({ problems: [...state.problems, "The MCP server credentials were sealed with another passphrase and stay locked; add their headers or sign in again."] }));
          return;
        }
        const servers = this.servers.map(({ sealed: _sealed, ...server }) => (secrets[server.id] ? { ...server, secret: secrets[server.id]! } : server));
        this.passphrase = passphrase;
        this.vault = undefined;
        this.store.setState({ servers, locked: false });
      } else {
        this.passphrase = passphrase;
        // Secrets stored in the clear before the passphrase was set: sealed now.
        if (this.servers.some((s) => s.secret)) await this.write(this.servers);
      }
    }).then(() => this.addPending());
  }

  /** The passphrase was set or changed (sealed again with it), or removed (stored as typed). */
  reseal(passphrase: string | undefined): Promise<void> {
    return this.writes.run(async () => {
      if (this.locked) throw new Error("The MCP server credentials are still locked, so they could not be sealed with the new passphrase.");
      const previous = this.passphrase;
      this.passphrase = passphrase;
      try {
        await this.write(this.servers);
      } catch (error) {
        this.passphrase = previous;
        throw error;
      }
    });
  }

  private addPending(): Promise<void> {
    const pending = this.pendingDeclared.splice(0);
    return pending.reduce((done, p) => done.then(() => this.addDeclared(p.workspaceId, p.workspaceName, p.declared)), Promise.resolve());
  }

  oauthOf(id: string): McpOAuthState | undefined {
    return this.servers.find((s) => s.id === id)?.secret?.oauth;
  }

  /**
   * Adds the servers a workspace declares that are not known yet, disabled (an imported repository
   * is untrusted), named after the file they came from; a name taken by another server gets a suffix.
   */
  addDeclared(workspaceId: string, workspaceName: string, declared: readonly DeclaredServer[]): Promise<void> {
    if (this.locked) {
      // Their headers cannot be sealed yet, and asking for the passphrase when a workspace opens
      // would be a surprise: those wait for the unlock.
      const withHeaders = declared.filter((d) => d.headers && Object.keys(d.headers).length > 0);
      if (withHeaders.length > 0) this.pendingDeclared.push({ workspaceId, workspaceName, declared: withHeaders });
      declared = declared.filter((d) => !withHeaders.includes(d));
    }
    if (declared.length === 0) return Promise.resolve();
    return this.update((servers) => {
      const next = [...servers];
      for (const entry of declared) {
        const known = next.some((s) => s.source.kind === "workspace" && s.source.workspaceId === workspaceId && s.source.file === entry.file && s.url === entry.url);
        if (known) continue;
        let name = entry.name;
        for (let i = 2; next.some((s) => s.name === name); i++) name = `${entry.name.slice(0, 27)}-${i}`;
        next.push({
          id: newId("mcp", Date.now()),
          name,
          url: entry.url,
          transport: entry.transport,
          enabled: false,
          timeoutMs: 60_000,
          source: { kind: "workspace", workspaceId, workspaceName, file: entry.file },
          ...(entry.headers && Object.keys(entry.headers).length > 0 && { secret: { headers: entry.headers } }),
        });
      }
      return next;
    });
  }

  /** Changes the user's skills as a function of the current list (after the changes before it), then stores them. */
  updateSkills(change: (skills: UserSkill[]) => UserSkill[]): Promise<void> {
    return this.writes.run(async () => {
      const skills = change(this.skills);
      try {
        await this.storage.settings.put(USER_SKILLS_KEY, { v: 1, skills: structuredClone(skills) });
      } catch (error) {
        throw new Error(`The skills could not be saved: ${errorMessage(error)}.`, { cause: error });
      }
      this.store.setState({ skills });
    });
  }
}

/**
 * A server edited in the form, with the OAuth state stored now: the form does not edit it, and a
 * token refresh may have stored newer tokens since the form was opened.
 */
function withOAuthOf(current: McpServerConfig, edited: McpServerConfig): McpServerConfig {
  const { secret: editedSecret, ...rest } = edited;
  const secret = { ...editedSecret };
  if (current.secret?.oauth) secret.oauth = current.secret.oauth;
  else delete secret.oauth;
  return Object.keys(secret).length > 0 ? { ...rest, secret } : rest;
}
