/**
 * Standard Webhooks (v1 symmetric): `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` headers; the signature is HMAC-SHA256 over
 * `{id}.{timestamp}.{body}`, sent as a space-separated list of `v1,<base64>`.
 */
import { concatBytes, fromBase64, utf8 } from "../encoding.ts";
import { matchesAnySecret, type SecretKey } from "./hmac.ts";
import { isWithinReplayWindow, parseUnixSeconds } from "./replay.ts";

const SECRET_PREFIX = "whsec_";

/**
 * The HMAC key of a Standard Webhooks secret: the base64 after `whsec_`, or the
 * UTF-8 bytes of a secret without that prefix. Null for a `whsec_` secret whose
 * base64 is invalid or empty.
 */
export function standardWebhookKey(secret: string): SecretKey | null {
  if (!secret.startsWith(SECRET_PREFIX)) return secret;
  const key = fromBase64(secret.slice(SECRET_PREFIX.length));
  return key && key.length > 0 ? key : null;
}

function signedContent(
  id: string,
  timestamp: string,
  body: Uint8Array,
): Uint8Array<ArrayBuffer> {
  return concatBytes(utf8(`${id}.${timestamp}.`), body);
}

/**
 * The single-use nonce of a verified message: its `webhook-id`, kept apart
 * from other schemes' nonces. Remembered for the whole replay window, it stops
 * a captured request from being replayed once de-duplication has forgotten it.
 */
export function standardWebhookNonce(id: string): string {
  return `webhook-id:${id}`;
}

/** The three Standard Webhooks headers of a request (null when absent). */
interface StandardWebhookHeaders {
  id: string | null;
  timestamp: string | null;
  signature: string | null;
}

/** Why a Standard Webhooks message was refused, or null when it verified. */
type StandardWebhookFailure =
  | "missing headers"
  | "malformed timestamp"
  | "timestamp outside the replay window"
  | "no matching signature";

function v1Signatures(header: string): Uint8Array[] {
  const digests: Uint8Array[] = [];
  for (const entry of header.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
    const digest = fromBase64(entry.slice(comma + 1));
    if (digest) digests.push(digest);
  }
  return digests;
}

/**
 * Verifies a Standard Webhooks message against every secret: all headers
 * present, the timestamp within the replay window of `nowMs`, and one `v1`
 * entry matching. Unknown signature versions are skipped.
 */
export async function verifyStandardWebhook(
  secrets: readonly string[],
  headers: StandardWebhookHeaders,
  body: Uint8Array,
  nowMs: number,
): Promise<StandardWebhookFailure | null> {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return "missing headers";
  const seconds = parseUnixSeconds(timestamp);
  if (seconds === null) return "malformed timestamp";
  if (!isWithinReplayWindow(seconds, nowMs)) return "timestamp outside the replay window";
  const keys = secrets.map(standardWebhookKey).filter((key) => key !== null);
  const matched = await matchesAnySecret(
    keys,
    signedContent(id, timestamp.trim(), body),
    v1Signatures(signature),
  );
  return matched ? null : "no matching signature";
}
