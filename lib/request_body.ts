/**
 * The one way a request body is read: streamed with a byte limit and a deadline, so no request
 * buffers more than its endpoint allows or holds a connection open by sending slowly. A
 * `Content-Length` over the limit is refused without reading; without one (chunked) or when it
 * understates, the stream is counted and cancelled as soon as the limit is passed. The whole
 * body must arrive within the deadline. Each endpoint's limit is in `limits.ts`; endpoints
 * that answer a refusal with an error use `http_body.ts`.
 */
import { concatBytes } from "./encoding.ts";
import { BODY_TIMEOUT_MS } from "./limits.ts";

/** How much of a body an endpoint reads, and for how long. */
export interface BodyLimits {
  maxBytes: number;
  /** Deadline for the whole body (default {@link BODY_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** The error texts of body refusals. */
export const BODY_ERRORS = {
  tooLarge: "Request too large",
  timeout: "Request timeout",
  unreadable: "Request body could not be read",
  invalidJson: "Invalid JSON",
} as const;

/** Why a body was not read: over the limit, past the deadline, or the stream failed. */
export type BodyRefusal = "too_large" | "timeout" | "unreadable";

/** A body read: its bytes, or why it was refused. */
type BodyRead =
  | { ok: true; bytes: Uint8Array<ArrayBuffer> }
  | { ok: false; refusal: BodyRefusal };

const DIGITS = /^\d+$/;
const TIMED_OUT = Symbol("timed out");

/** What a body is read from: a request, or a response of an outbound call. */
type BodySource = Pick<Request, "headers" | "body">;

/** Reads the body within `limits` (see the module comment); never throws. */
export async function readBody(request: BodySource, limits: BodyLimits): Promise<BodyRead> {
  const declared = request.headers.get("content-length")?.trim();
  if (declared && DIGITS.test(declared) && Number(declared) > limits.maxBytes) {
    request.body?.cancel().catch(() => {});
    return { ok: false, refusal: "too_large" };
  }
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), limits.timeoutMs ?? BODY_TIMEOUT_MS);
  });
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    while (true) {
      const next = await Promise.race([reader.read(), deadline]);
      if (next === TIMED_OUT) {
        reader.cancel().catch(() => {});
        return { ok: false, refusal: "timeout" };
      }
      if (next.done) break;
      total += next.value.length;
      if (total > limits.maxBytes) {
        reader.cancel().catch(() => {});
        return { ok: false, refusal: "too_large" };
      }
      parts.push(next.value);
    }
  } catch {
    return { ok: false, refusal: "unreadable" };
  } finally {
    clearTimeout(timer);
  }
  return { ok: true, bytes: concatBytes(...parts) };
}
