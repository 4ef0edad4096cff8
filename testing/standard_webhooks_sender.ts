/**
 * A Standard Webhooks sender, for tests and benchmarks: signs `{id}.{timestamp}.{body}` with
 * HMAC-SHA256 as the specification says (the key is the base64 after `whsec_`, or the secret's
 * own bytes), through Web Crypto rather than the verifier's code (`node:crypto`), so the
 * verifier is checked against an independent signer.
 */

const SECRET_PREFIX = "whsec_";

/** The `v1,<base64>` signature a sender puts in `webhook-signature`. */
export async function signStandardWebhook(
  secret: string,
  id: string,
  timestamp: number,
  body: Uint8Array,
): Promise<string> {
  const keyBytes = secret.startsWith(SECRET_PREFIX)
    ? Uint8Array.from(atob(secret.slice(SECRET_PREFIX.length)), (char) => char.charCodeAt(0))
    : new TextEncoder().encode(secret);
  const key = await crypto.subtle.importKey(
    "raw",
    keyBytes,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, signed));
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}
