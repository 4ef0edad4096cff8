/**
 * The JSON event inside a webhook body. GitHub and Gitea send either the JSON itself
 * (`application/json`) or an HTML form (`application/x-www-form-urlencoded`) whose one
 * `payload` field holds it. The signature is always checked over the raw body first; only
 * then is the form read. The JSON is never larger than the form it came in (decoding only
 * shrinks), so the body's size limit bounds it too.
 */
import { fromUtf8, utf8 } from "../encoding.ts";

const FORM_TYPE = "application/x-www-form-urlencoded";

/** Whether the request says its body is a URL-encoded form. */
function isFormBody(headers: Headers): boolean {
  const mediaType = headers.get("content-type")?.split(";", 1)[0].trim().toLowerCase();
  return mediaType === FORM_TYPE;
}

/**
 * The event's JSON bytes: the body itself, or a form body's single `payload` field; null for a
 * form body without exactly one.
 */
export function eventJsonOf(
  headers: Headers,
  body: Uint8Array<ArrayBuffer>,
): Uint8Array<ArrayBuffer> | null {
  if (!isFormBody(headers)) return body;
  const payloads = new URLSearchParams(fromUtf8(body)).getAll("payload");
  return payloads.length === 1 ? utf8(payloads[0]) : null;
}
