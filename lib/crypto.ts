/** Hashing, MACs, random values and constant-time comparison on Web Crypto. */
import { toHex, utf8 } from "./encoding.ts";

/** SHA-256 of text or bytes, as lower-case hex. */
export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const bytes = typeof data === "string" ? utf8(data) : data;
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

/** HMAC-SHA256 of `data` under `key`, as raw bytes. */
export async function hmacSha256(
  key: string | Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  const raw = typeof key === "string" ? utf8(key) : key;
  const cryptoKey = await crypto.subtle.importKey(
    "raw",
    raw,
    { name: "HMAC", hash: "SHA-256" },
    false,
    [
      "sign",
    ],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, data));
}

/**
 * Compares two byte strings in time that depends only on their lengths.
 * Returns false for different lengths without looking at the content.
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** `length` cryptographically random bytes. */
export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length));
}

/** `length` random bytes as hex (so twice as many characters). */
export function randomHex(length: number): string {
  return toHex(randomBytes(length));
}

/** A random url-safe token carrying `length` bytes of entropy. */
export function randomToken(length = 32): string {
  return randomBytes(length).toBase64({ alphabet: "base64url", omitPadding: true });
}
