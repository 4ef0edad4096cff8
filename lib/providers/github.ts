/** GitHub: `X-GitHub-Event`, `X-GitHub-Delivery`, `X-Hub-Signature-256: sha256=<hex>`. */
import { hmacHex, matchesAnySecret, parsePrefixedDigest } from "../signature/hmac.ts";
import {
  eventHeader,
  firstHeader,
  type ProviderAdapter,
  type SignedRequest,
  type Verification,
} from "./adapter.ts";
import { eventNameOf } from "./event_name.ts";

/** The `X-Hub-Signature-256` value a GitHub hook with `secret` sends for `body`. */
export async function signGithubBody(
  secret: string,
  body: Uint8Array<ArrayBuffer>,
): Promise<string> {
  return `sha256=${await hmacHex(secret, body)}`;
}

async function verify({ headers, body, secrets }: SignedRequest): Promise<Verification> {
  const digest = parsePrefixedDigest(headers.get("x-hub-signature-256"));
  if (!digest) return { ok: false, reason: "missing or malformed X-Hub-Signature-256" };
  return await matchesAnySecret(secrets, body, [digest])
    ? { ok: true }
    : { ok: false, reason: "X-Hub-Signature-256 does not match" };
}

/** The GitHub adapter. */
export const github: ProviderAdapter = {
  provider: "github",
  verify,
  eventName(headers, payload) {
    const kind = eventHeader(headers, "x-github-event");
    return kind ? eventNameOf("github", kind, payload) : null;
  },
  deliveryId: (headers) => firstHeader(headers, "x-github-delivery"),
};
