/**
 * A Standard Webhooks sender, for tests and benchmarks: signs `{id}.{timestamp}.{body}` with
 * HMAC-SHA256 as the specification says (the key is the base64 after `whsec_`, or the secret's
 * own bytes), through `node:crypto` rather than the verifier's code, so the verifier is checked
 * against an independent signer.
 */
import { Buffer } from "node:buffer";
import { createHmac } from "node:crypto";

const SECRET_PREFIX = "whsec_";

/** The `v1,<base64>` signature a sender puts in `webhook-signature`. */
export function signStandardWebhook(
  secret: string,
  id: string,
  timestamp: number,
  body: Uint8Array,
): Promise<string> {
  const key = secret.startsWith(SECRET_PREFIX)
    ? Buffer.from(secret.slice(SECRET_PREFIX.length), "base64")
    : Buffer.from(secret, "utf8");
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body);
  return Promise.resolve(`v1,${mac.digest("base64")}`);
}
