/**
 * Outbound JSON calls to platform APIs with a timeout, answered as a result
 * value rather than an exception, so callers can decide between success,
 * a platform refusal (with its status and message) and a network failure.
 * Answers are read with a size bound, and messages are cut to a bound.
 */
import { readBody } from "./request_body.ts";

/** The default time a platform call may take. */
const CALL_TIMEOUT_MS = 10_000;

/** Largest answer read from a platform; a larger one counts as unreadable. */
export const ANSWER_MAX_BYTES = 4 * 1024 * 1024;

/** Longest platform message kept (it reaches send logs and error pages). */
export const MESSAGE_MAX_CHARS = 500;

/** The outcome of one call. */
export type CallOutcome<T> =
  | { kind: "ok"; status: number; body: T; headers: Headers }
  | {
    kind: "refused";
    status: number;
    /** The platform's own message when it gave one, else the HTTP status text. */
    message: string;
    body: unknown;
    headers: Headers;
  }
  | { kind: "unreachable"; message: string };

/** Calls `url` with a JSON body (when given) and reads a JSON answer. */
export async function callJson<T>(
  url: string,
  init: { method?: string; headers?: HeadersInit; body?: unknown; timeoutMs?: number },
  messageOf: (body: unknown) => string | undefined = defaultMessage,
): Promise<CallOutcome<T>> {
  const headers = new Headers(init.headers);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  // A timer cleared once the answer is read, rather than `AbortSignal.timeout`, whose signal
  // and timer would outlive every call by the whole timeout.
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException("timed out", "TimeoutError")),
    init.timeoutMs ?? CALL_TIMEOUT_MS,
  );
  let res: Response;
  let read: Awaited<ReturnType<typeof readBody>>;
  try {
    res = await fetch(url, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: "manual",
      signal: controller.signal,
    });
    read = await readBody(res, { maxBytes: ANSWER_MAX_BYTES, timeoutMs: CALL_TIMEOUT_MS });
  } catch (error) {
    const message = error instanceof DOMException && error.name === "TimeoutError"
      ? "timed out"
      : (error as Error).message;
    return { kind: "unreachable", message };
  } finally {
    clearTimeout(timer);
  }
  if (!read.ok) {
    return { kind: "unreachable", message: `answer ${read.refusal.replace("_", " ")}` };
  }
  const text = new TextDecoder().decode(read.bytes);
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch { /* keep the text */ }
  if (res.ok) return { kind: "ok", status: res.status, body: body as T, headers: res.headers };
  const message = (messageOf(body) ?? `${res.status} ${res.statusText}`.trim())
    .slice(0, MESSAGE_MAX_CHARS);
  return { kind: "refused", status: res.status, message, body, headers: res.headers };
}

/** The answer's `message` when it is text (else the caller falls back to the status text). */
function defaultMessage(body: unknown): string | undefined {
  if (body && typeof body === "object" && "message" in body) {
    const message = (body as { message: unknown }).message;
    return typeof message === "string" && message.trim() !== "" ? message : undefined;
  }
  return undefined;
}
