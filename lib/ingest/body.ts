/** Reading a request body without ever buffering more than the size limit. */
import { concatBytes } from "../signature/hmac.ts";

/** Largest accepted webhook body: 1 MB (1,048,576 bytes). */
export const MAX_BODY_BYTES = 1024 * 1024;

const DIGITS = /^\d+$/;

/**
 * The request's body bytes, or null when it is larger than `maxBytes`. A
 * `Content-Length` over the limit is refused without reading the body; without
 * one (or when it understates) the stream is counted and cancelled as soon as
 * the limit is passed.
 */
export async function readBodyWithLimit(
  request: Request,
  maxBytes: number = MAX_BODY_BYTES,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = request.headers.get("content-length")?.trim();
  if (declared && DIGITS.test(declared) && Number(declared) > maxBytes) {
    await request.body?.cancel();
    return null;
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  return concatBytes(...parts);
}
