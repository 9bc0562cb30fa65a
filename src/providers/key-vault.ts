// Optional passphrase protection of the provider keys at rest (issue 9, point 9): the API keys and
// credential headers are sealed with AES-GCM under a key derived from the passphrase with PBKDF2,
// both from WebCrypto (no hand-written cryptography). The rest of each config stays readable, so
// Settings can list providers and models before the keys are unlocked.
import { fromBase64, toBase64 } from "../base";
import type { ProviderConfig } from "./types";

/** The sealed secrets as stored (base64 fields). */
export interface KeyVault {
  v: 1;
  kdf: "PBKDF2-SHA256";
  iterations: number;
  salt: string;
  iv: string;
  data: string;
  /** Which secrets each provider has (not their values): for the stand-ins used while locked. */
  fields: Record<string, { apiKey?: true; headers?: string[]; oauth?: true }>;
}

/** The secret fields of each provider, by provider id. */
export type ProviderSecrets = Record<string, { apiKey?: string; headers?: Record<string, string> }>;

/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256; about a second of work per guess on a laptop. */
export const VAULT_ITERATIONS = 600_000;

/** Header names whose values are credentials (custom proxies use many spellings). */
const CREDENTIAL_HEADER = /auth|key|token|secret|cookie|session|password|credential/i;

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER.test(name);
}

export class WrongPassphraseError extends Error {
  constructor() {
    super("That passphrase does not unlock the provider keys.");
    this.name = "WrongPassphraseError";
  }
}

const encoder = new TextEncoder();

async function deriveKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(passphrase), "PBKDF2", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

/** Seals the secrets under the passphrase (a fresh salt and IV each time). */
export async function sealSecrets(secrets: ProviderSecrets, passphrase: string, iterations = VAULT_ITERATIONS): Promise<KeyVault> {
  const fields: KeyVault["fields"] = {};
  for (const [id, secret] of Object.entries(secrets)) {
    fields[id] = { ...(secret.apiKey !== undefined && { apiKey: true as const }), ...(secret.headers && { headers: Object.keys(secret.headers) }) };
  }
  return sealValue(secrets, passphrase, fields, iterations);
}

/**
 * Seals any JSON value the same way (other secrets kept like provider keys, such as MCP server
 * headers and OAuth tokens); `fields` says, in the clear, which secrets there are.
 */
export async function sealValue(value: unknown, passphrase: string, fields: KeyVault["fields"], iterations = VAULT_ITERATIONS): Promise<KeyVault> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await deriveKey(passphrase, salt, iterations);
  const data = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, encoder.encode(JSON.stringify(value))));
  return { v: 1, kdf: "PBKDF2-SHA256", iterations, salt: toBase64(salt), iv: toBase64(iv), data: toBase64(data), fields };
}

/** Opens a vault; throws WrongPassphraseError when the passphrase (or the vault) does not match. */
export async function openVault(vault: KeyVault, passphrase: string): Promise<ProviderSecrets> {
  const parsed = await openValue(vault, passphrase);
  return parsed && typeof parsed === "object" ? (parsed as ProviderSecrets) : {};
}

/** The sealed value as it was sealed (untrusted like any stored data); throws WrongPassphraseError. */
export async function openValue(vault: KeyVault, passphrase: string): Promise<unknown> {
  const key = await deriveKey(passphrase, fromBase64(vault.salt), vault.iterations);
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(vault.iv) }, key, fromBase64(vault.data));
  } catch {
    // AES-GCM authenticates: a wrong key and a changed vault fail alike.
    throw new WrongPassphraseError();
  }
  return JSON.parse(new TextDecoder().decode(plain)) as unknown;
}

/** Whether a stored value is a vault of this version. */
export function isKeyVault(value: unknown): value is KeyVault {
  const v = value as Partial<KeyVault> | null;
  return (
    !!v &&
    v.v === 1 &&
    v.kdf === "PBKDF2-SHA256" &&
    typeof v.iterations === "number" &&
    v.iterations >= 1 &&
    [v.salt, v.iv, v.data].every((f) => typeof f === "string") &&
    !!v.fields &&
    typeof v.fields === "object"
  );
}

/** Configs without their secrets, and the secrets by provider id. */
export function splitSecrets(configs: readonly ProviderConfig[]): { configs: ProviderConfig[]; secrets: ProviderSecrets } {
  const secrets: ProviderSecrets = {};
  const stripped = configs.map((config) => {
    const secret: ProviderSecrets[string] = {};
    const copy: ProviderConfig = { ...config };
    if (config.apiKey) {
      secret.apiKey = config.apiKey;
      delete copy.apiKey;
    }
    if (config.headers) {
      const kept: Record<string, string> = {};
      for (const [name, value] of Object.entries(config.headers)) {
        if (isCredentialHeader(name)) (secret.headers ??= {})[name] = value;
        else kept[name] = value;
      }
      copy.headers = kept;
    }
    if (secret.apiKey !== undefined || secret.headers) secrets[config.id] = secret;
    return copy;
  });
  return { configs: stripped, secrets };
}

/** Puts secrets back into configs (the inverse of splitSecrets). */
export function mergeSecrets(configs: readonly ProviderConfig[], secrets: ProviderSecrets): ProviderConfig[] {
  return configs.map((config) => {
    const secret = secrets[config.id];
    if (!secret) return config;
    return {
      ...config,
      ...(secret.apiKey !== undefined && { apiKey: secret.apiKey }),
      ...(secret.headers && { headers: { ...config.headers, ...secret.headers } }),
    };
  });
}

/**
 * Stand-ins for locked secrets: configs carry them until the passphrase is given, and a request
 * that holds one waits for the unlock and has it replaced (see LiveProviderRegistry).
 */
export const LOCKED_SECRET_PREFIX = "webcode-locked-secret:";

export function lockedSecrets(vault: KeyVault): ProviderSecrets {
  const out: ProviderSecrets = {};
  for (const [id, fields] of Object.entries(vault.fields)) {
    out[id] = {
      ...(fields.apiKey && { apiKey: `${LOCKED_SECRET_PREFIX}${id}:apiKey` }),
      ...(Array.isArray(fields.headers) && { headers: Object.fromEntries(fields.headers.map((name) => [name, `${LOCKED_SECRET_PREFIX}${id}:header:${name}`])) }),
    };
  }
  return out;
}

/** Whether a header value or key is a stand-in (a request holding one must wait for the unlock). */
export function holdsLockedSecret(text: string): boolean {
  return text.includes(LOCKED_SECRET_PREFIX);
}

/** Replaces every stand-in in `text` by its real value from the unlocked secrets. */
export function replaceLockedSecrets(text: string, secrets: ProviderSecrets): string {
  return text.replace(new RegExp(`${LOCKED_SECRET_PREFIX}([^:\\s]+):(apiKey|header:([^\\s]+?))(?=$|[\\s,;"])`, "g"), (whole, id: string, field: string, header?: string) => {
    const secret = secrets[id];
    const value = field === "apiKey" ? secret?.apiKey : header !== undefined ? secret?.headers?.[header] : undefined;
    return value ?? whole;
  });
}
