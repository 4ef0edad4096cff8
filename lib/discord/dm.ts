/** The bot's DM channel with a Discord user, opened by `POST /users/@me/channels`. */
import type { RememberedChats } from "../platform/adapter.ts";
import type { SendResult } from "../platform/send_result.ts";
import type { Target } from "../types.ts";
import { callDiscord, type DiscordSettings } from "./api.ts";
import { discordResultOf, type DiscordSendResult } from "./send.ts";

/** Makes a Discord call through the rate limiter (reserved, then observed). */
export type PacedCall = (call: () => Promise<DiscordSendResult>) => Promise<SendResult>;

/** Opens (or finds) the DM channel with `recipientId`; a sent result's `messageId` is its id. */
async function openDmChannel(
  settings: DiscordSettings,
  recipientId: string,
): Promise<DiscordSendResult> {
  const outcome = await callDiscord<{ id?: string }>(settings, "POST", "/users/@me/channels", {
    recipient_id: recipientId,
  });
  return discordResultOf(outcome);
}

/**
 * The DM channel with `userId` as a target: the one `remembered` holds, else one opened now
 * through `paced` (and remembered); the refusal, retryable or not, when it cannot be opened.
 */
export async function openDirectTarget(
  settings: DiscordSettings,
  userId: string,
  paced: PacedCall,
  remembered?: RememberedChats,
): Promise<Target | SendResult> {
  const known = await remembered?.get(userId);
  if (known) return { platform: "discord", channelId: known };
  const opened = await paced(() => openDmChannel(settings, userId));
  if (opened.kind !== "sent") return opened;
  const channelId = String(opened.messageId ?? "");
  if (!/^\d{1,20}$/.test(channelId)) return { kind: "retryable", error: "no DM channel id" };
  await remembered?.save(userId, channelId);
  return { platform: "discord", channelId };
}
