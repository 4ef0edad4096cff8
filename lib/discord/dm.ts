/** The bot's DM channel with a Discord user, opened by `POST /users/@me/channels`. */
import type { CallOutcome } from "../http_client.ts";
import type { RememberedChats } from "../platform/adapter.ts";
import type { SendResult } from "../platform/send_result.ts";
import type { Target } from "../types.ts";
import { callDiscord, type DiscordSettings } from "./api.ts";

/** Opens (or finds) the DM channel with `recipientId`; its id on success. */
async function openDmChannel(
  settings: DiscordSettings,
  recipientId: string,
): Promise<CallOutcome<{ id: string }>> {
  return await callDiscord<{ id: string }>(settings, "POST", "/users/@me/channels", {
    recipient_id: recipientId,
  });
}

/**
 * The DM channel with `userId` as a target: the one `remembered` holds, else one opened now
 * (and remembered); the refusal, retryable or not, when it cannot be opened.
 */
export async function openDirectTarget(
  settings: DiscordSettings,
  userId: string,
  remembered?: RememberedChats,
): Promise<Target | SendResult> {
  const known = await remembered?.get(userId);
  if (known) return { platform: "discord", channelId: known };
  const opened = await openDmChannel(settings, userId);
  if (opened.kind === "unreachable") return { kind: "retryable", error: opened.message };
  if (opened.kind === "refused") {
    return opened.status >= 500 || opened.status === 429
      ? { kind: "retryable", httpStatus: opened.status, error: opened.message }
      : { kind: "rejected", httpStatus: opened.status, error: opened.message };
  }
  const channelId = String(opened.body?.id ?? "");
  if (!/^\d{1,20}$/.test(channelId)) return { kind: "retryable", error: "no DM channel id" };
  await remembered?.save(userId, channelId);
  return { platform: "discord", channelId };
}
