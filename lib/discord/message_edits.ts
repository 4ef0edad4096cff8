/**
 * The Discord calls of noise control beyond posting (docs/noise.md): editing a message
 * (digests, thread cards) and starting a thread from a message (threaded routes).
 */
import type { DiscordMessageBody } from "../format/discord.ts";
import { platformDelayMs } from "../platform/platform_delay.ts";
import { refusalResult, type SendResult } from "../platform/send_result.ts";
import type { CallOutcome } from "../http_client.ts";
import { callDiscord, type DiscordSettings } from "./api.ts";

/** Longest thread name Discord takes. */
export const THREAD_NAME_LENGTH = 100;

function resultOf(outcome: CallOutcome<{ id?: string }>): SendResult {
  if (outcome.kind === "unreachable") return { kind: "retryable", error: outcome.message };
  if (outcome.kind === "ok") {
    return { kind: "sent", httpStatus: outcome.status, messageId: outcome.body?.id };
  }
  if (outcome.status === 429) {
    const body = outcome.body as { retry_after?: unknown; global?: unknown } | null;
    const delayMs = platformDelayMs(body?.retry_after);
    if (delayMs !== null) {
      return {
        kind: "rate_limited",
        httpStatus: 429,
        retryAfterMs: delayMs,
        global: body?.global === true,
        error: outcome.message,
      };
    }
  }
  return refusalResult(outcome.status, outcome.message);
}

/** Replaces the content, embeds and components of message `messageId` in `channelId`. */
export async function editDiscordMessage(
  settings: DiscordSettings,
  channelId: string,
  messageId: string,
  body: DiscordMessageBody,
): Promise<SendResult> {
  const path = `/channels/${encodeURIComponent(channelId)}/messages/${
    encodeURIComponent(messageId)
  }`;
  return resultOf(await callDiscord<{ id?: string }>(settings, "PATCH", path, body));
}

/**
 * Starts a public thread from message `messageId` in `channelId`; a sent result's `messageId`
 * is the thread's id (Discord gives the thread the message's id).
 */
export async function startDiscordThread(
  settings: DiscordSettings,
  channelId: string,
  messageId: string,
  name: string,
): Promise<SendResult> {
  const path = `/channels/${encodeURIComponent(channelId)}/messages/${
    encodeURIComponent(messageId)
  }/threads`;
  const threadName = name.trim().slice(0, THREAD_NAME_LENGTH) || "Thread";
  return resultOf(
    await callDiscord<{ id?: string }>(settings, "POST", path, {
      name: threadName,
      auto_archive_duration: 10080,
    }),
  );
}
