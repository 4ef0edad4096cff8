/**
 * Posting a rendered message to a Discord channel or thread as the bot, with a
 * nonce that Discord enforces: a retry of a call whose answer was lost shows
 * the message once.
 */
import type { SendResult } from "../delivery/send_result.ts";
import { refusalResult } from "../delivery/send_result.ts";
import type { DiscordMessageBody } from "../format/discord.ts";
import { callDiscord, type DiscordSettings } from "./api.ts";
import { type DiscordRateLimitInfo, parseDiscordRateLimit } from "./rate_limit.ts";

/** A send result with what the answer said about the channel's bucket. */
export type DiscordSendResult = SendResult & {
  rateLimit?: DiscordRateLimitInfo;
};

interface RateLimitedBody {
  message?: string;
  retry_after?: number;
  global?: boolean;
}

const DEFAULT_RETRY_AFTER_MS = 1000;

function retryAfterMs(body: RateLimitedBody | null, headers: Headers): number {
  if (typeof body?.retry_after === "number" && body.retry_after >= 0) {
    return Math.ceil(body.retry_after * 1000);
  }
  const header = Number(headers.get("retry-after"));
  return Number.isFinite(header) && header >= 0 ? Math.ceil(header * 1000) : DEFAULT_RETRY_AFTER_MS;
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
  if (outcome.kind === "unreachable") return { kind: "retryable", error: outcome.message };
  const rateLimit = parseDiscordRateLimit(outcome.headers);
  if (outcome.kind === "ok") {
    return { kind: "sent", httpStatus: outcome.status, messageId: outcome.body?.id, rateLimit };
  }
  if (outcome.status === 429) {
    const answer = (typeof outcome.body === "object" ? outcome.body : null) as
      | RateLimitedBody
      | null;
    return {
      kind: "rate_limited",
      httpStatus: 429,
      retryAfterMs: retryAfterMs(answer, outcome.headers),
      global: answer?.global === true || outcome.headers.get("x-ratelimit-global") === "true",
      error: outcome.message,
      rateLimit,
    };
  }
  return { ...refusalResult(outcome.status, outcome.message), rateLimit };
}
