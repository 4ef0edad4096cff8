/**
 * Gitea and Forgejo: `X-Gitea-Event` / `X-Forgejo-Event`, `X-Gitea-Delivery` /
 * `X-Forgejo-Delivery`, and a bare hex HMAC-SHA256 in `X-Gitea-Signature` or
 * `X-Forgejo-Signature`. Gitea sends the signature headers empty when the hook
 * has no secret: an empty value is unsigned, never a match.
 */
import { hmacHex, matchesAnySecret, parseHexDigest } from "../signature/hmac.ts";
import {
  eventHeader,
  firstHeader,
  type ProviderAdapter,
  type SignedRequest,
  type Verification,
} from "./adapter.ts";
import { eventNameOf } from "./event_name.ts";

/** The `X-Gitea-Signature` value a Gitea hook with `secret` sends for `body`. */
export async function signGiteaBody(
  secret: string,
  body: Uint8Array<ArrayBuffer>,
): Promise<string> {
  return await hmacHex(secret, body);
}

async function verify({ headers, body, secrets }: SignedRequest): Promise<Verification> {
  const digests = ["x-gitea-signature", "x-forgejo-signature"]
    .map((name) => parseHexDigest(headers.get(name)))
    .filter((digest) => digest !== null);
  if (digests.length === 0) {
    return { ok: false, reason: "missing, empty or malformed X-Gitea-Signature" };
  }
  return await matchesAnySecret(secrets, body, digests)
    ? { ok: true }
    : { ok: false, reason: "X-Gitea-Signature does not match" };
}

/** The Gitea / Forgejo adapter. */
export const gitea: ProviderAdapter = {
  provider: "gitea",
  verify,
  eventName(headers, payload) {
    const event = eventHeader(headers, "x-gitea-event") ?? eventHeader(headers, "x-forgejo-event");
    return event ? eventNameOf("gitea", event, payload) : null;
  },
  deliveryId: (headers) => firstHeader(headers, "x-gitea-delivery", "x-forgejo-delivery"),
};
