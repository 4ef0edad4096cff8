/**
 * The one way a request body is read: streamed with a byte limit and a deadline, so no request
 * buffers more than its endpoint allows or holds a connection open by sending slowly. A
 * `Content-Length` over the limit is refused without reading; without one (chunked) or when it
 * understates, the stream is counted and cancelled as soon as the limit is passed. The whole
 * body must arrive within the deadline. Each endpoint's limit is in `limits.ts`.
 */
import { concatBytes, fromUtf8 } from "./encoding.ts";
import { HttpError } from "./fresh/http_error.ts";
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
export type BodyRead =
  | { ok: true; bytes: Uint8Array<ArrayBuffer> }
  | { ok: false; refusal: BodyRefusal };

const DIGITS = /^\d+$/;
const TIMED_OUT = Symbol("timed out");

/** Reads the body within `limits` (see the module comment); never throws. */
export async function readBody(request: Request, limits: BodyLimits): Promise<BodyRead> {
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

/** The body's bytes; throws 413 `Request too large`, 408 `Request timeout` or 400. */
export async function readBodyBytes(
  request: Request,
  limits: BodyLimits,
): Promise<Uint8Array<ArrayBuffer>> {
  const read = await readBody(request, limits);
  if (read.ok) return read.bytes;
  switch (read.refusal) {
    case "too_large":
      throw new HttpError(413, BODY_ERRORS.tooLarge);
    case "timeout":
      throw new HttpError(408, BODY_ERRORS.timeout);
    case "unreadable":
      throw new HttpError(400, BODY_ERRORS.unreadable);
  }
}

/** The body parsed as JSON; as {@link readBodyBytes}, and 400 `Invalid JSON` when it is not. */
export async function readJsonBody(request: Request, limits: BodyLimits): Promise<unknown> {
  const bytes = await readBodyBytes(request, limits);
  try {
    return JSON.parse(fromUtf8(bytes));
  } catch {
    throw new HttpError(400, BODY_ERRORS.invalidJson);
  }
}

/** The body parsed as an HTML form; as {@link readBodyBytes}, and 400 when it is not a form. */
export async function readFormBody(request: Request, limits: BodyLimits): Promise<FormData> {
  const bytes = await readBodyBytes(request, limits);
  const contentType = request.headers.get("content-type") ?? "";
  try {
    return await new Response(bytes, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new HttpError(400, "Expected a form");
  }
}
