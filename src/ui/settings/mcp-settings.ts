// The MCP servers and user skills Settings edits (issue 14). Servers, with their headers and OAuth
// tokens under `secret` (left out of backups like provider keys), are kept in this origin's
// IndexedDB; servers an opened workspace declares are added disabled with their source.
import { createStore, type StoreApi } from "zustand/vanilla";
import { errorMessage, newId } from "../../base";
import { MCP_SETTINGS_KEY, restoreMcpServers, storedMcpServers, type DeclaredServer, type McpOAuthState, type McpServerConfig, type UserSkill } from "../../agent";
import type { Storage } from "../../storage";

export const USER_SKILLS_KEY = "skills";

export interface McpSettingsState {
  servers: McpServerConfig[];
  skills: UserSkill[];
  problems: string[];
}

function restoreSkills(value: unknown): UserSkill[] {
  const list = (value as { skills?: unknown } | undefined)?.skills;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (s): s is UserSkill => !!s && typeof s === "object" && ["name", "description", "content"].every((k) => typeof (s as Record<string, unknown>)[k] === "string"),
  );
}

export class McpSettings {
  readonly store: StoreApi<McpSettingsState> = createStore<McpSettingsState>(() => ({ servers: [], skills: [], problems: [] }));
  /** Writes one after another, each from the state it changes. */
  private writing: Promise<unknown> = Promise.resolve();

  constructor(private readonly storage: Pick<Storage, "settings">) {}

  async load(): Promise<void> {
    const problems: string[] = [];
    const servers = restoreMcpServers(await this.storage.settings.get<unknown>(MCP_SETTINGS_KEY), (p) => problems.push(p));
    const skills = restoreSkills(await this.storage.settings.get<unknown>(USER_SKILLS_KEY));
    this.store.setState({ servers, skills, problems });
  }

  get servers(): McpServerConfig[] {
    return this.store.getState().servers;
  }

  get skills(): UserSkill[] {
    return this.store.getState().skills;
  }

  /** Changes the server list as a function of the current one, then stores it. */
  private update(change: (servers: McpServerConfig[]) => McpServerConfig[]): Promise<void> {
    const run = this.writing.then(async () => {
      const servers = change(this.servers);
      try {
        await this.storage.settings.put(MCP_SETTINGS_KEY, storedMcpServers(servers));
      } catch (error) {
        throw new Error(`The MCP servers could not be saved: ${errorMessage(error)}. Check that this site may store data, then try again.`, { cause: error });
      }
      this.store.setState({ servers });
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  /** Adds or replaces a server (by id); throws when another server has its name. */
  save(server: McpServerConfig): Promise<void> {
    return this.update((servers) => {
      if (servers.some((s) => s.id !== server.id && s.name === server.name)) throw new Error(`Another MCP server is already named "${server.name}": tool names must stay apart. Choose another name.`);
      const exists = servers.some((s) => s.id === server.id);
      return exists ? servers.map((s) => (s.id === server.id ? server : s)) : [...servers, server];
    });
  }

  setEnabled(id: string, enabled: boolean): Promise<void> {
    return this.update((servers) => servers.map((s) => (s.id === id ? { ...s, enabled } : s)));
  }

  remove(id: string): Promise<void> {
    return this.update((servers) => servers.filter((s) => s.id !== id));
  }

  /** Stores OAuth state (tokens, client registration) of a server; undefined signs out. */
  setOAuth(id: string, oauth: McpOAuthState | undefined): Promise<void> {
    return this.update((servers) =>
      servers.map((s) => {
        if (s.id !== id) return s;
        const secret = { ...s.secret };
        if (oauth) secret.oauth = oauth;
        else delete secret.oauth;
        return { ...s, secret };
      }),
    );
  }

  oauthOf(id: string): McpOAuthState | undefined {
    return this.servers.find((s) => s.id === id)?.secret?.oauth;
  }

  /**
   * Adds the servers a workspace declares that are not known yet, disabled (an imported repository
   * is untrusted), named after the file they came from; a name taken by another server gets a suffix.
   */
  addDeclared(workspaceId: string, workspaceName: string, declared: readonly DeclaredServer[]): Promise<void> {
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

  async saveSkills(skills: UserSkill[]): Promise<void> {
    try {
      await this.storage.settings.put(USER_SKILLS_KEY, { v: 1, skills: structuredClone(skills) });
    } catch (error) {
      throw new Error(`The skills could not be saved: ${errorMessage(error)}.`, { cause: error });
    }
    this.store.setState({ skills });
  }
}
