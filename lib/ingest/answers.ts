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
  formWithoutPayload:
    "Invalid event: a form body (application/x-www-form-urlencoded) needs exactly one `payload` field holding the JSON event",
  invalidDeliveryId:
    `Invalid delivery id: at most ${MAX_DELIVERY_ID_LENGTH} printable ASCII characters`,
  unknownGroup: "Unknown group webhook",
  internal: "Internal server error",
} as const;

/** 200 `{ ok: true }`. */
export const accepted = (): Response => json(200, { ok: true });

/** 200 `{ ok: true, duplicate: true }`. */
export const duplicate = (): Response => json(200, { ok: true, duplicate: true });
