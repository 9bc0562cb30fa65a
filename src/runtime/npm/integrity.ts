// Subresource-integrity checks of tarballs (sha512 "integrity", or the older sha1 "shasum") with
// WebCrypto. An entry may list several hashes; the strongest algorithm present decides, as in ssri.
import { NpmError } from "./registry";

const STRENGTH: Record<string, { rank: number; webcrypto: string }> = {
  sha1: { rank: 1, webcrypto: "SHA-1" },
  sha256: { rank: 2, webcrypto: "SHA-256" },
  sha384: { rank: 3, webcrypto: "SHA-384" },
  sha512: { rank: 4, webcrypto: "SHA-512" },
};

/** SRI string for bytes ("sha512-…"), as a lockfile records it. */
export async function integrityOf(bytes: Uint8Array, algorithm: "sha512" | "sha1" = "sha512"): Promise<string> {
  return `${algorithm}-${toBase64(await digest(STRENGTH[algorithm]!.webcrypto, bytes))}`;
}

/** Throws EINTEGRITY unless the bytes match. `shasum` (hex sha1) is used when there is no integrity. */
export async function checkIntegrity(bytes: Uint8Array, what: string, integrity: string | undefined, shasum?: string): Promise<void> {
  const expected = integrity ?? (shasum ? `sha1-${hexToBase64(shasum)}` : undefined);
  if (!expected) return;
  const entries = expected
    .split(/\s+/)
    .map((entry) => /^(sha1|sha256|sha384|sha512)-([A-Za-z0-9+/=]+)(\?.*)?$/.exec(entry))
    .filter((match): match is RegExpExecArray => match !== null);
  if (entries.length === 0) throw new NpmError(`${what}: the integrity "${expected}" uses no hash this page can check.`, "EINTEGRITY");
  const best = Math.max(...entries.map((match) => STRENGTH[match[1]!]!.rank));
  const chosen = entries.filter((match) => STRENGTH[match[1]!]!.rank === best);
  const actual = toBase64(await digest(STRENGTH[chosen[0]![1]!]!.webcrypto, bytes));
  if (!chosen.some((match) => match[2] === actual)) {
    throw new NpmError(
      `Integrity check failed for ${what}: expected ${chosen.map((m) => `${m[1]}-${m[2]}`).join(" ")}, got ${chosen[0]![1]}-${actual}. The download is not what the registry or lockfile promised; nothing was installed.`,
      "EINTEGRITY",
    );
  }
}

async function digest(algorithm: string, bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest(algorithm, bytes as Uint8Array<ArrayBuffer>));
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary);
}

function hexToBase64(hex: string): string {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return toBase64(bytes);
}
