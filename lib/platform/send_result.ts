/** What one platform call came to, in the terms the retry policy needs. */
export type SendResult =
  /** The platform accepted the message. */
  | { kind: "sent"; httpStatus: number; messageId?: string; digestId?: string }
  /** The platform asked to wait (429). */
  | { kind: "rate_limited"; httpStatus: 429; retryAfterMs: number; global: boolean; error: string }
  /** Worth another try: network error, timeout or 5xx. */
  | { kind: "retryable"; httpStatus?: number; error: string }
  /** Final: the platform refused the message (4xx other than 429). */
  | { kind: "rejected"; httpStatus: number; error: string };

/** Classifies a refusal by HTTP status (429 is handled by each platform's sender). */
export function refusalResult(status: number, message: string): SendResult {
  return status >= 500
    ? { kind: "retryable", httpStatus: status, error: message }
    : { kind: "rejected", httpStatus: status, error: message };
}
