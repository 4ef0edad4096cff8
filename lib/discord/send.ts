/**
 * Posting a rendered message to a Discord channel or thread as the bot, with a
 * nonce that Discord enforces: a retry of a call whose answer was lost shows
 * the message once.
 */
import type { SendResult } from "../platform/send_result.ts";
import { refusalResult } from "../platform/send_result.ts";
import type { DiscordMessageBody } from "../format/discord.ts";
import { headerDelayMs, platformDelayMs } from "../platform/platform_delay.ts";
import type { CallOutcome } from "../http_client.ts";
import { callDiscord, type DiscordSettings } from "./api.ts";
import { type DiscordRateLimitInfo, parseDiscordRateLimit } from "./rate_limit.ts";

/** A send result with what the answer said about the channel's bucket. */
export type DiscordSendResult = SendResult & {
  rateLimit?: DiscordRateLimitInfo;
};

interface RateLimitedBody {
  message?: unknown;
  retry_after?: unknown;
  global?: unknown;
}

/**
 * The wait a 429 asks for: the body's `retry_after`, else the `Retry-After`
 * header, clamped; null when neither is a usable number.
 */
function retryAfterMs(body: RateLimitedBody | null, headers: Headers): number | null {
  return platformDelayMs(body?.retry_after) ?? headerDelayMs(headers.get("retry-after"));
}

/**
 * Creates a message in `channelId` (a channel or thread id): the renderer's
 * content, embeds and allowed mentions, plus `nonce` with `enforce_nonce`.
 */
export async function sendDiscordMessage(
  settings: DiscordSettings,
  channelId: string,
  body: DiscordMessageBody,
  nonce: string,
): Promise<DiscordSendResult> {
  const outcome = await callDiscord<{ id?: string }>(
    settings,
    "POST",
    `/channels/${encodeURIComponent(channelId)}/messages`,
    { ...body, nonce, enforce_nonce: true },
  );
  return discordResultOf(outcome);
}

/**
 * What a Discord message call came to: sent (with the message id), rate limited (the wait it
 * asks for), worth a retry, or refused, with what the answer said about the channel's bucket.
 */
export function discordResultOf(outcome: CallOutcome<{ id?: string }>): DiscordSendResult {
  if (outcome.kind === "unreachable") return { kind: "retryable", error: outcome.message };
  const rateLimit = parseDiscordRateLimit(outcome.headers);
  if (outcome.kind === "ok") {
    return { kind: "sent", httpStatus: outcome.status, messageId: outcome.body?.id, rateLimit };
  }
  if (outcome.status === 429) {
    const answer = (typeof outcome.body === "object" ? outcome.body : null) as
      | RateLimitedBody
      | null;
    const delayMs = retryAfterMs(answer, outcome.headers);
    if (delayMs === null) {
      return { kind: "retryable", httpStatus: 429, error: outcome.message, rateLimit };
    }
    return {
      kind: "rate_limited",
      httpStatus: 429,
      retryAfterMs: delayMs,
      global: answer?.global === true || outcome.headers.get("x-ratelimit-global") === "true",
      error: outcome.message,
      rateLimit,
    };
  }
  return { ...refusalResult(outcome.status, outcome.message), rateLimit };
}
