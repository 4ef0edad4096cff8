/**
 * Platform calls of noise control made outside a unit's own send: posting a digest when quiet
 * hours end, and editing digests and thread cards. Discord posts carry a nonce derived from the
 * digest id, so a repeated close shows one message.
 */
import type { Config } from "../config.ts";
import { editDiscordMessage } from "../discord/edit.ts";
import { sendDiscordMessage } from "../discord/send.ts";
import type { DiscordMessageBody } from "../format/discord.ts";
import type { TelegramMessageBody } from "../format/telegram.ts";
import { editAsSendResult } from "../platform/edit_result.ts";
import type { SendResult } from "../platform/send_result.ts";
import { editTelegramMessage } from "../telegram/edit.ts";
import { sendTelegramMessage } from "../telegram/send.ts";
import type { Target } from "../types.ts";
import { discordNonceFor } from "./targets.ts";

/** The channel or thread a Discord target posts into. */
export function discordChannelOf(target: Extract<Target, { platform: "discord" }>): string {
  return target.threadId ?? target.channelId;
}

/** Posts `body` to `target`; `id` names the post for Discord's nonce. */
export async function postMessage(
  config: Config,
  target: Target,
  id: string,
  body: unknown,
): Promise<SendResult> {
  if (target.platform === "discord") {
    return await sendDiscordMessage(
      config.discord,
      discordChannelOf(target),
      body as DiscordMessageBody,
      await discordNonceFor(id),
    );
  }
  return await sendTelegramMessage(config.telegram, target, body as TelegramMessageBody);
}

/** Replaces message `messageId` at `target` with `body`; a message no longer there is refused. */
export async function editMessage(
  config: Config,
  target: Target,
  messageId: string,
  body: unknown,
): Promise<SendResult> {
  if (target.platform === "discord") {
    return editAsSendResult(
      await editDiscordMessage(
        config.discord,
        discordChannelOf(target),
        messageId,
        body as DiscordMessageBody,
      ),
    );
  }
  return editAsSendResult(
    await editTelegramMessage(
      config.telegram,
      target.chatId,
      messageId,
      body as TelegramMessageBody,
    ),
  );
}
