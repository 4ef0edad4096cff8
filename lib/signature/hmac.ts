/**
 * The signature core: HMAC-SHA256 over raw bytes, checked against every
 * configured secret (so secrets can rotate) with constant-time comparison.
 */
import { timingSafeEqual } from "../crypto.ts";
import { fromHex, toHex } from "../encoding.ts";

/** A secret as configured (text, used as its UTF-8 bytes) or as raw key bytes. */
export type SecretKey = string | Uint8Array<ArrayBuffer>;

/** Imported keys kept at most (the configured and group secrets in use; the oldest goes first). */
const KEYS_KEPT = 1_000;
const importedKeys = new Map<string, Promise<CryptoKey>>();

/** The cache's name for a secret: text as itself, raw key bytes as hex (the two cannot collide). */
function cacheName(secret: SecretKey): string {
  return typeof secret === "string" ? `t:${secret}` : `b:${toHex(secret)}`;
}

/**
 * The HMAC-SHA256 key of a secret, imported once and kept: importing costs about as much as
 * signing a webhook, and a sender's secret is the same for every request.
 */
function keyOf(secret: SecretKey): Promise<CryptoKey> {
  const name = cacheName(secret);
  let key = importedKeys.get(name);
  if (key) return key;
  const bytes = typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
  key = crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  key.catch(() => importedKeys.delete(name));
  importedKeys.set(name, key);
  if (importedKeys.size > KEYS_KEPT) importedKeys.delete(importedKeys.keys().next().value!);
  return key;
}

/**
 * HMAC-SHA256 of `message` under `secret`, as raw bytes. Web Crypto signs off the main
 * thread, so under load the digests of concurrent webhooks run beside the main thread's work
 * (parsing, compressing, committing) rather than on it.
 */
export async function hmacDigest(
  secret: SecretKey,
  message: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", await keyOf(secret), message));
}

/** HMAC-SHA256 of `message` under `secret`, as lower-case hex. */
export async function hmacHex(
  secret: SecretKey,
  message: Uint8Array<ArrayBuffer>,
): Promise<string> {
  return toHex(await hmacDigest(secret, message));
}

/**
 * True when one of `candidates` equals HMAC-SHA256(`message`) under one of
 * `secrets`. Every pair is compared in constant time and no comparison is
 * skipped once a match is found. No secrets or no candidates never match.
 */
export async function matchesAnySecret(
  secrets: readonly SecretKey[],
  message: Uint8Array<ArrayBuffer>,
  candidates: readonly Uint8Array[],
): Promise<boolean> {
  if (secrets.length === 0 || candidates.length === 0) return false;
  const digests = await Promise.all(secrets.map((secret) => hmacDigest(secret, message)));
  let matched = false;
  for (const digest of digests) {
    for (const candidate of candidates) {
      if (timingSafeEqual(digest, candidate)) matched = true;
    }
  }
  return matched;
}

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/**
 * The digest bytes of a bare hex SHA-256 signature (Gitea, Forgejo), or null
 * when the value is empty or not 64 hex characters.
 */
export function parseHexDigest(value: string | null): Uint8Array<ArrayBuffer> | null {
  const text = value?.trim() ?? "";
  if (!SHA256_HEX.test(text)) return null;
  return fromHex(text.toLowerCase());
}

/**
 * The digest bytes of a `sha256=<hex>` signature (GitHub, Switchyard), or null
 * when the prefix is missing or the hex is malformed.
 */
export function parsePrefixedDigest(value: string | null): Uint8Array<ArrayBuffer> | null {
  const text = value?.trim() ?? "";
  if (!text.toLowerCase().startsWith("sha256=")) return null;
  return parseHexDigest(text.slice("sha256=".length));
}
