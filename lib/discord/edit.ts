/**
 * Changing a message the bot posted: editing it in place
 * (`PATCH /channels/{channel}/messages/{message}`), where the content, embed, allowed mentions
 * and buttons are replaced together, deleting it, and starting a public thread from it. A deleted message
 * (404) is `gone`, so the caller posts a new one.
 */
import type { DiscordMessageBody } from "../format/discord.ts";
import type { DiscordRateLimitInfo } from "./rate_limit.ts";
import type { EditResult } from "../platform/edit_result.ts";
import type { CallOutcome } from "../http_client.ts";
import { callDiscord, type DiscordSettings } from "./api.ts";
import { discordResultOf, type DiscordSendResult } from "./send.ts";

/** Longest thread name Discord takes. */
const THREAD_NAME_LENGTH = 100;

/** An edit result with what the answer said about the channel's bucket. */
export type DiscordEditResult = EditResult & { rateLimit?: DiscordRateLimitInfo };

function messagePath(channelId: string, messageId: string): string {
  return `/channels/${encodeURIComponent(channelId)}/messages/${encodeURIComponent(messageId)}`;
}

/** Replaces the message `messageId` in `channelId` (a channel or thread) with `body`. */
export async function editDiscordMessage(
  settings: DiscordSettings,
  channelId: string,
  messageId: string,
  body: DiscordMessageBody,
): Promise<DiscordEditResult> {
  const outcome = await callDiscord<{ id?: string }>(
    settings,
    "PATCH",
    messagePath(channelId, messageId),
    {
      content: body.content ?? "",
      embeds: body.embeds,
      allowed_mentions: body.allowed_mentions,
      components: body.components ?? [],
    },
  );
  const result = discordResultOf(outcome);
  if (result.kind === "rejected" && result.httpStatus === 404) {
    return { kind: "gone", httpStatus: 404, error: result.error, rateLimit: result.rateLimit };
  }
  return result.kind === "sent" ? { ...result, messageId } : result;
}

/** Deletes the message `messageId` in `channelId`; one already gone counts as deleted. */
export async function deleteDiscordMessage(
  settings: DiscordSettings,
  channelId: string,
  messageId: string,
): Promise<DiscordSendResult> {
  const outcome = await callDiscord<null>(settings, "DELETE", messagePath(channelId, messageId));
  const result = discordResultOf(outcome as CallOutcome<{ id?: string }>);
  return result.kind === "rejected" && result.httpStatus === 404
    ? { kind: "sent", httpStatus: 404, rateLimit: result.rateLimit }
    : result;
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
): Promise<DiscordSendResult> {
  const threadName = name.trim().slice(0, THREAD_NAME_LENGTH) || "Thread";
  const outcome = await callDiscord<{ id?: string }>(
    settings,
    "POST",
    `${messagePath(channelId, messageId)}/threads`,
    { name: threadName, auto_archive_duration: 10080 },
  );
  return discordResultOf(outcome);
}
