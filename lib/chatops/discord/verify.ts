/**
 * Discord's request signature: Ed25519 over the `X-Signature-Timestamp` header followed by the
 * raw body, with the application's public key, checked with Web Crypto before anything is
 * parsed. A timestamp more than five minutes off is refused too, so a captured request cannot be
 * replayed later.
 */
import { concatBytes, fromHex, utf8 } from "../../encoding.ts";

/** How far the signed timestamp may be from now. */
const DISCORD_TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000;

const SIGNATURE_HEX = /^[0-9a-f]{128}$/i;
const TIMESTAMP = /^\d{1,12}$/;

const keys = new Map<string, Promise<CryptoKey>>();

function publicKey(hex: string): Promise<CryptoKey> | null {
  const known = keys.get(hex);
  if (known) return known;
  const raw = fromHex(hex);
  if (!raw || raw.length !== 32) return null;
  const key = crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]);
  keys.set(hex, key);
  return key;
}

/**
 * Whether `body` carries a valid signature from the holder of `publicKeyHex` (64 hex digits)
 * with a timestamp within {@link DISCORD_TIMESTAMP_TOLERANCE_MS} of `now`. Never throws.
 */
export async function verifyDiscordSignature(
  publicKeyHex: string,
  headers: Headers,
  body: Uint8Array<ArrayBuffer>,
  now: number = Date.now(),
): Promise<boolean> {
  const signature = headers.get("x-signature-ed25519")?.trim() ?? "";
  const timestamp = headers.get("x-signature-timestamp")?.trim() ?? "";
  if (!SIGNATURE_HEX.test(signature) || !TIMESTAMP.test(timestamp)) return false;
  if (Math.abs(now - Number(timestamp) * 1000) > DISCORD_TIMESTAMP_TOLERANCE_MS) return false;
  try {
    const key = publicKey(publicKeyHex.toLowerCase());
    if (!key) return false;
    return await crypto.subtle.verify(
      { name: "Ed25519" },
      await key,
      fromHex(signature)!,
      concatBytes(utf8(timestamp), body),
    );
  } catch {
    return false;
  }
}
