/** The ingress's JSON answers: the one place for the exact texts senders see. */
import { MAX_DELIVERY_ID_LENGTH } from "../limits.ts";
import { BODY_ERRORS } from "../request_body.ts";

/** A JSON response. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

/** 503 `{ error }` with `Retry-After`: the store could not take the event; send it again. */
export function unavailable(): Response {
  const response = jsonError(503, INGRESS_ERRORS.unavailable);
  response.headers.set("retry-after", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  return response;
}

/** A JSON error response `{ error }`. */
export function jsonError(status: number, error: string): Response {
  return json(status, { error });
}

/** The error texts of the ingress. */
export const INGRESS_ERRORS = {
  tooLarge: BODY_ERRORS.tooLarge,
  timeout: BODY_ERRORS.timeout,
  unreadable: BODY_ERRORS.unreadable,
  invalidSignature: "Invalid signature",
  invalidEvent: "Invalid event",
  invalidDeliveryId:
    `Invalid delivery id: at most ${MAX_DELIVERY_ID_LENGTH} printable ASCII characters`,
  unknownGroup: "Unknown group webhook",
  internal: "Internal server error",
  unavailable: "Temporarily unavailable: try again in a moment",
} as const;

/** Seconds a sender is asked to wait when the store cannot be reached for a moment. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** 200 `{ ok: true }`. */
export const accepted = (): Response => json(200, { ok: true });

/** 200 `{ ok: true, duplicate: true }`. */
export const duplicate = (): Response => json(200, { ok: true, duplicate: true });

/** Why the ingress refused a request: one reason per refusal, shown in the console's list. */
export type RejectionReason =
  | "unknown_group"
  | "too_large"
  | "timeout"
  | "unreadable"
  | "missing_headers"
  | "no_secret"
  | "bad_signature"
  | "bad_delivery_id"
  | "replayed_nonce"
  | "form_without_payload"
  | "not_json"
  | "unknown_event";

/** A refusal in words: what went wrong and what the sender's owner changes. */
interface RejectionText {
  words: string;
  fix: string;
}

/**
 * Each refusal in words, for the console and for the `X-Switchyard-Hint` header the answer
 * carries (the JSON `error` keeps its documented text).
 */
export const REJECTION_TEXTS: Readonly<Record<RejectionReason, RejectionText>> = {
  unknown_group: {
    words: "The address names no group, or the group's webhook has no secret.",
    fix: "Copy the Payload URL from the group's page in the console; generate the group's " +
      "webhook secret there if it has none.",
  },
  too_large: {
    words: "The body is larger than the ingress accepts.",
    fix: "Send fewer events or smaller payloads (select individual events in the sender's " +
      "webhook settings).",
  },
  timeout: {
    words: "The body did not arrive within the deadline.",
    fix: "Check the network between the sender and this server, then redeliver.",
  },
  unreadable: {
    words: "The body could not be read.",
    fix: "Redeliver; if it keeps failing, check proxies between the sender and this server.",
  },
  missing_headers: {
    words: "No signature and no event header: the request does not come from a webhook the " +
      "ingress knows.",
    fix: "Set a secret in the sender's webhook settings (GitHub sends X-Hub-Signature-256 " +
      "and X-GitHub-Event, Gitea X-Gitea-Signature and X-Gitea-Event).",
  },
  no_secret: {
    words: "No secret is configured for this sender on the instance-wide ingress.",
    fix: "Point the sender at its group's own Payload URL, or set the provider's " +
      "*_WEBHOOK_SECRET and restart.",
  },
  bad_signature: {
    words: "Bad signature: the secret in the sender's settings does not match.",
    fix: "Paste the group's current secret into the sender's webhook settings (generate a new " +
      "one in the console if it is lost).",
  },
  bad_delivery_id: {
    words: "The delivery id header is too long or not printable ASCII.",
    fix: "Send a delivery id of at most 200 printable ASCII characters.",
  },
  replayed_nonce: {
    words: "Replayed: this signed request (its nonce) was already used.",
    fix: "Sign each request with a fresh nonce and the current timestamp.",
  },
  form_without_payload: {
    words: "Form body without exactly one `payload` field.",
    fix: "A form body (application/x-www-form-urlencoded) needs exactly one `payload` field " +
      "holding the JSON event; or set the content type in the sender's webhook settings to " +
      "application/json.",
  },
  not_json: {
    words: "The body is not a JSON object in UTF-8 (wrong content type?).",
    fix: "Set the content type in the sender's webhook settings to application/json.",
  },
  unknown_event: {
    words: "The event header is missing or names no event the ingress reads.",
    fix: "Send the event header your provider documents (X-GitHub-Event, X-Gitea-Event), " +
      "with an action of at most 64 characters.",
  },
};

/** The header that tells a refused sender what to change. */
export const HINT_HEADER = "x-switchyard-hint";

const reasons = new WeakMap<Response, RejectionReason>();

/** A JSON error `{ error }` for a refusal, with what to change in {@link HINT_HEADER}. */
export function refusal(status: number, error: string, reason: RejectionReason): Response {
  const response = jsonError(status, error);
  response.headers.set(HINT_HEADER, REJECTION_TEXTS[reason].fix);
  reasons.set(response, reason);
  return response;
}

/** Why a response made by {@link refusal} refused its request; undefined for any other. */
export function rejectionReasonOf(response: Response): RejectionReason | undefined {
  return reasons.get(response);
}
