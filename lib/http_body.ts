/**
 * An endpoint's request body read within its limits (`request_body.ts`) and parsed as JSON or
 * an HTML form; a refusal is thrown as the HttpError it answers: 413 `Request too large`, 408
 * `Request timeout`, 400 when unreadable or not what was expected.
 */
import { fromUtf8 } from "./encoding.ts";
import { HttpError } from "./fresh/http_error.ts";
import { BODY_ERRORS, type BodyLimits, readBody } from "./request_body.ts";

/** The body's bytes; throws 413 `Request too large`, 408 `Request timeout` or 400. */
async function readBodyBytes(
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

/**
 * The body parsed as JSON; as {@link readBodyBytes}, and 400 `Invalid JSON` when it is not. An
 * empty body is `whenEmpty` when one is given (an optional body).
 */
export async function readJsonBody(
  request: Request,
  limits: BodyLimits,
  whenEmpty?: unknown,
): Promise<unknown> {
  const bytes = await readBodyBytes(request, limits);
  if (bytes.length === 0 && whenEmpty !== undefined) return whenEmpty;
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
