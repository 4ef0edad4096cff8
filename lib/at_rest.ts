/**
 * Encryption at rest for the credentials Switchyard stores (users' GitHub tokens, groups'
 * webhook secrets): AES-256-GCM under TOKEN_ENCRYPTION_KEY with a random 12-byte IV per value.
 * A sealed value is `v1.<iv>.<ciphertext>` in base64url; the version prefix leaves room for a
 * later scheme or key rotation. Without the key values are stored as they are, which the
 * operator is told once at start-up.
 */
import { randomBytes } from "./crypto.ts";
import { fromBase64, fromUtf8, utf8 } from "./encoding.ts";

const PREFIX = "v1.";
const IV_BYTES = 12;
const keys = new Map<string, Promise<CryptoKey>>();

function importKey(base64Key: string): Promise<CryptoKey> {
  let key = keys.get(base64Key);
  if (!key) {
    const raw = fromBase64(base64Key);
    if (!raw || raw.length !== 32) throw new Error("The token encryption key must be 32 bytes");
    key = crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    keys.set(base64Key, key);
  }
  return key;
}

const base64url = (bytes: Uint8Array) =>
  bytes.toBase64({ alphabet: "base64url", omitPadding: true });

/** Whether a stored value is sealed (rather than a plain token). */
function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/** Encrypts `plain` under the base64 key; without a key the value is returned as it is. */
export async function sealToken(plain: string, base64Key: string | undefined): Promise<string> {
  if (!base64Key) return plain;
  const iv = randomBytes(IV_BYTES);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await importKey(base64Key),
    utf8(plain),
  );
  return `${PREFIX}${base64url(iv)}.${base64url(new Uint8Array(sealed))}`;
}

/**
 * Decrypts a value written by `sealToken`. A plain (unsealed) value is returned
 * as it is, so tokens stored before a key was configured stay readable. Null
 * when a sealed value cannot be opened: no key, another key, or tampering.
 */
export async function openToken(
  stored: string,
  base64Key: string | undefined,
): Promise<string | null> {
  if (!isSealed(stored)) return stored;
  if (!base64Key) return null;
  const [ivText, dataText] = stored.slice(PREFIX.length).split(".");
  const iv = fromBase64(ivText ?? "", "base64url");
  const data = fromBase64(dataText ?? "", "base64url");
  if (!iv || iv.length !== IV_BYTES || !data) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv },
      await importKey(base64Key),
      data,
    );
    return fromUtf8(new Uint8Array(plain));
  } catch {
    return null;
  }
}

/** The start-up warning when stored credentials will not be encrypted, or null. */
export function atRestWarning(config: { tokenEncryptionKey?: string }): string | null {
  if (config.tokenEncryptionKey) return null;
  return "TOKEN_ENCRYPTION_KEY is not set: GitHub tokens and group webhook secrets " +
    "are stored unencrypted";
}
