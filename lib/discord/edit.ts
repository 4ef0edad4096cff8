/**
 * Editing a message the bot posted (`PATCH /channels/{channel}/messages/{message}`): the
 * content, embed, allowed mentions and buttons are replaced together. A deleted message (404)
 * is `gone`, so the caller posts a new one.
 */
import type { DiscordMessageBody } from "../format/discord.ts";
import type { DiscordRateLimitInfo } from "./rate_limit.ts";
import type { EditResult } from "../platform/edit_result.ts";
import { callDiscord, type DiscordSettings } from "./api.ts";
import { discordResultOf } from "./send.ts";

/** An edit result with what the answer said about the channel's bucket. */
export type DiscordEditResult = EditResult & { rateLimit?: DiscordRateLimitInfo };

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
    `/channels/${encodeURIComponent(channelId)}/messages/${encodeURIComponent(messageId)}`,
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
