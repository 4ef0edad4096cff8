/**
 * The signature core: HMAC-SHA256 over raw bytes, checked against every
 * configured secret (so secrets can rotate) with constant-time comparison.
 */
import { timingSafeEqual } from "../crypto.ts";
import { fromHex, toHex } from "../encoding.ts";

/** A secret as configured (text, used as its UTF-8 bytes) or as raw key bytes. */
export type SecretKey = string | Uint8Array<ArrayBuffer>;

let nodeCrypto: Promise<typeof import("node:crypto")> | undefined;

/**
 * `node:crypto`, imported on first use (importing it loads Node's compatibility layer, which
 * would otherwise add to every start). Its HMAC runs synchronously over the bytes, which costs
 * a webhook about half what Web Crypto's `sign` does on a 28 KB body.
 */
function loadNodeCrypto(): Promise<typeof import("node:crypto")> {
  return nodeCrypto ??= import("node:crypto");
}

/** HMAC-SHA256 of `message` under `secret`, as raw bytes. */
export async function hmacDigest(
  secret: SecretKey,
  message: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  // copied: a Node digest may be a view into a shared pool
  return new Uint8Array(
    (await loadNodeCrypto()).createHmac("sha256", secret).update(message).digest(),
  );
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
