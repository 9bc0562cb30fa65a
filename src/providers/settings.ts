// Where provider configs live: this origin's IndexedDB settings, read back through a restore step.
// Keys stay here; anything displayed, logged or exported goes through redactConfig.
import { z } from "zod";
import type { Storage } from "../storage";
import { holdsLockedSecret, isKeyVault, lockedSecrets, mergeSecrets, sealSecrets, splitSecrets, type KeyVault } from "./key-vault";
import type { ModelInfo, ProviderConfig } from "./types";

export const PROVIDER_SETTINGS_KEY = "providers";
export const PROVIDER_SETTINGS_VERSION = 1;

const modelSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  providerId: z.string().min(1),
  context: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  input: z.number().int().nonnegative().optional(),
  stallTimeoutMs: z.number().int().positive().optional(),
  stallBudgetMs: z.number().int().positive().optional(),
  cost: z.object({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    cacheRead: z.number().nonnegative().optional(),
    cacheWrite: z.number().nonnegative().optional(),
  }),
  capabilities: z.object({ tools: z.boolean(), images: z.boolean(), reasoning: z.boolean(), temperature: z.boolean() }),
});

const configSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(["openai", "anthropic", "google", "openrouter", "openai-compatible"]),
  name: z.string().min(1),
  baseUrl: z.string().optional(),
  apiKey: z.string().optional(),
  api: z.enum(["responses", "chat"]).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  smallModel: z.string().optional(),
  webSearch: z.boolean().optional(),
  models: z.array(z.unknown()).default([]),
});

interface StoredProviders {
  v: number;
  configs: unknown[];
  /** Present when the keys are protected by a passphrase: the configs then hold none. */
  vault?: KeyVault;
}

/** Validates stored configs; bad ones (and bad models inside good ones) are skipped and reported. */
export function restoreProviderConfigs(value: unknown, onInvalid?: (problem: string) => void): ProviderConfig[] {
  if (value === undefined) return [];
  const stored = value as Partial<StoredProviders> | null;
  if (!stored || typeof stored !== "object" || !Array.isArray(stored.configs)) {
    onInvalid?.("The saved provider settings are unreadable; they were ignored.");
    return [];
  }
  const configs: ProviderConfig[] = [];
  const seen = new Set<string>();
  for (const raw of stored.configs) {
    const parsed = configSchema.safeParse(raw);
    if (!parsed.success || seen.has(parsed.data.id)) {
      onInvalid?.(`A saved provider entry is invalid and was skipped: ${parsed.success ? `duplicate id "${parsed.data.id}"` : parsed.error.issues[0]?.message}`);
      continue;
    }
    seen.add(parsed.data.id);
    const models: ModelInfo[] = [];
    for (const rawModel of parsed.data.models) {
      const model = modelSchema.safeParse(rawModel);
      if (model.success) models.push({ ...model.data, providerId: parsed.data.id });
      else onInvalid?.(`A model of provider "${parsed.data.id}" is invalid and was skipped.`);
    }
    configs.push({ ...stripUndefined(parsed.data), models });
  }
  return configs;
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export async function loadProviderConfigs(
  storage: Pick<Storage, "settings">,
  onInvalid?: (problem: string) => void,
): Promise<ProviderConfig[]> {
  return restoreProviderConfigs(await storage.settings.get<unknown>(PROVIDER_SETTINGS_KEY), onInvalid);
}

/**
 * The configs as Settings shows them, and the vault when the keys are protected by a passphrase:
 * then each secret is a stand-in (key-vault.ts) until unlocked.
 */
export async function loadProviderSettings(
  storage: Pick<Storage, "settings">,
  onInvalid?: (problem: string) => void,
): Promise<{ configs: ProviderConfig[]; vault?: KeyVault }> {
  const stored = await storage.settings.get<unknown>(PROVIDER_SETTINGS_KEY);
  const configs = restoreProviderConfigs(stored, onInvalid);
  const vault = (stored as Partial<StoredProviders> | undefined)?.vault;
  if (vault === undefined) return { configs };
  if (!isKeyVault(vault)) {
    onInvalid?.("The saved provider keys are unreadable; add them again in Settings.");
    return { configs };
  }
  return { configs: mergeSecrets(configs, lockedSecrets(vault)), vault };
}

/**
 * Saves configs (keys included) to this origin's IndexedDB; with a passphrase, the keys and
 * credential headers are sealed in a vault instead. Throws on an invalid config.
 */
export async function saveProviderConfigs(storage: Pick<Storage, "settings">, configs: ProviderConfig[], options: { passphrase?: string } = {}): Promise<void> {
  const ids = new Set<string>();
  for (const config of configs) {
    const parsed = configSchema.safeParse(config);
    if (!parsed.success) throw new Error(`Provider "${config.id}" is invalid: ${parsed.error.issues[0]?.message}`);
    if (ids.has(config.id)) throw new Error(`Two providers share the id "${config.id}"; each needs its own.`);
    ids.add(config.id);
    for (const model of config.models) {
      const checked = modelSchema.safeParse(model);
      if (!checked.success) throw new Error(`Model "${model.id}" of provider "${config.id}" is invalid: ${checked.error.issues[0]?.message}`);
    }
  }
  if (configs.some((c) => holdsLockedSecret(c.apiKey ?? "") || Object.values(c.headers ?? {}).some(holdsLockedSecret))) {
    throw new Error("The provider keys are locked: unlock them with your passphrase before changing providers.");
  }
  if (options.passphrase !== undefined) {
    const { configs: stripped, secrets } = splitSecrets(configs);
    const vault = await sealSecrets(secrets, options.passphrase);
    await storage.settings.put(PROVIDER_SETTINGS_KEY, { v: PROVIDER_SETTINGS_VERSION, configs: structuredClone(stripped), vault } satisfies StoredProviders);
    return;
  }
  const stored: StoredProviders = { v: PROVIDER_SETTINGS_VERSION, configs: structuredClone(configs) };
  await storage.settings.put(PROVIDER_SETTINGS_KEY, stored);
}

const SECRET_HEADER = /^(authorization|x-api-key|api-key|x-goog-api-key|proxy-authorization|cookie)$/i;
export const REDACTED = "[redacted]";

/** A copy safe to display or log: the key and credential headers replaced. */
export function redactConfig(config: ProviderConfig): ProviderConfig {
  const copy: ProviderConfig = { ...config, models: config.models.map((m) => ({ ...m })) };
  if (config.apiKey) copy.apiKey = REDACTED;
  if (config.headers) {
    copy.headers = Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? REDACTED : value]));
  }
  return copy;
}

/** "sk-…wxyz" for showing which key is set; short keys show nothing of themselves. */
export function maskKey(key: string | undefined): string {
  if (!key) return "";
  return key.length >= 16 ? `${key.slice(0, 3)}…${key.slice(-4)}` : "••••";
}
