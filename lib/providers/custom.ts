/**
 * Custom senders. Two ways to sign, both over the raw body:
 * - `X-Switchyard-Signature: sha256=<hex>` over the body; with both
 *   `X-Switchyard-Timestamp` (Unix seconds) and `X-Switchyard-Nonce` the
 *   signature is over `{timestamp}.{nonce}.{body}`, the timestamp must lie
 *   within the replay window and the nonce is single-use (checked by the caller
 *   in KV). One of the two replay headers without the other is refused.
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`); the
 *   `webhook-id` is the delivery id and, for the whole replay window, a single-use nonce.
 * Every custom event has kind `custom`; its action is the payload's `action`.
 */
import { hmacHex, matchesAnySecret, parsePrefixedDigest } from "../signature/hmac.ts";
import { isWithinReplayWindow, parseUnixSeconds } from "../signature/replay.ts";
import { standardWebhookNonce, verifyStandardWebhook } from "../signature/standard_webhooks.ts";
import { concatBytes, utf8 } from "../encoding.ts";
import {
  firstHeader,
  type ProviderAdapter,
  type SignedRequest,
  type Verification,
} from "./adapter.ts";
import { eventNameOf } from "./event_name.ts";

const NONCE = /^[\x21-\x7e]{1,128}$/;

function replayProtectedContent(
  timestamp: number,
  nonce: string,
  body: Uint8Array,
): Uint8Array<ArrayBuffer> {
  return concatBytes(utf8(`${timestamp}.${nonce}.`), body);
}

/**
 * The `X-Switchyard-Signature` value for `body`; with `replay`, the value for
 * the same body sent with those `X-Switchyard-Timestamp` and `-Nonce` headers.
 */
export async function signCustomBody(
  secret: string,
  body: Uint8Array<ArrayBuffer>,
  replay?: { timestamp: number; nonce: string },
): Promise<string> {
  const content = replay ? replayProtectedContent(replay.timestamp, replay.nonce, body) : body;
  return `sha256=${await hmacHex(secret, content)}`;
}

async function verifySwitchyard(
  { headers, body, secrets, nowMs }: SignedRequest,
): Promise<Verification> {
  const digest = parsePrefixedDigest(headers.get("x-switchyard-signature"));
  if (!digest) return { ok: false, reason: "malformed X-Switchyard-Signature" };
  const timestampHeader = headers.get("x-switchyard-timestamp");
  const nonce = headers.get("x-switchyard-nonce")?.trim();
  if (timestampHeader === null && nonce === undefined) {
    return await matchesAnySecret(secrets, body, [digest])
      ? { ok: true }
      : { ok: false, reason: "X-Switchyard-Signature does not match" };
  }
  const timestamp = parseUnixSeconds(timestampHeader);
  if (timestamp === null || nonce === undefined || !NONCE.test(nonce)) {
    return { ok: false, reason: "X-Switchyard-Timestamp and -Nonce must both be well-formed" };
  }
  if (!isWithinReplayWindow(timestamp, nowMs)) {
    return { ok: false, reason: "X-Switchyard-Timestamp outside the replay window" };
  }
  return await matchesAnySecret(secrets, replayProtectedContent(timestamp, nonce, body), [digest])
    ? { ok: true, nonce }
    : { ok: false, reason: "X-Switchyard-Signature does not match" };
}

async function verify(request: SignedRequest): Promise<Verification> {
  if (request.headers.has("x-switchyard-signature")) return await verifySwitchyard(request);
  const { headers, body, secrets, nowMs } = request;
  const id = headers.get("webhook-id");
  const failure = await verifyStandardWebhook(
    secrets,
    {
      id,
      timestamp: headers.get("webhook-timestamp"),
      signature: headers.get("webhook-signature"),
    },
    body,
    nowMs,
  );
  return failure || id === null
    ? { ok: false, reason: `Standard Webhooks: ${failure ?? "missing headers"}` }
    : { ok: true, nonce: standardWebhookNonce(id) };
}

/** The custom-sender adapter. */
export const custom: ProviderAdapter = {
  provider: "custom",
  verify,
  eventName: (_headers, payload) => eventNameOf("custom", "custom", payload),
  deliveryId: (headers) => firstHeader(headers, "webhook-id"),
};
