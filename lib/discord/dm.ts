/** Opening the bot's DM channel with a Discord user (`POST /users/@me/channels`). */
import type { CallOutcome } from "../http_client.ts";
import { callDiscord, type DiscordSettings } from "./api.ts";

/** Opens (or finds) the DM channel with `recipientId`; its id on success. */
export async function openDmChannel(
  settings: DiscordSettings,
  recipientId: string,
): Promise<CallOutcome<{ id: string }>> {
  return await callDiscord<{ id: string }>(settings, "POST", "/users/@me/channels", {
    recipient_id: recipientId,
  });
}
