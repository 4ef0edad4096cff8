/**
 * "Not my own": a person who chose `skipOwnActions` is not sent the GitHub events they caused
 * in the Telegram private chats linked to their account. A private chat's id is its user's id,
 * so a target is such a chat when its chat id is a user linked to a GitHub account; the event is
 * theirs when its `sender.id` is that account. Group chats, channels and Discord targets are
 * shared, so they always get every event.
 */
import type { Kv } from "../store/backend/types.ts";
import { getTelegramLink } from "../store/auth/links.ts";
import { getUserPreferences } from "../store/auth/user_preferences.ts";
import type { ForgeEvent, Target } from "../types.ts";

/** A positive chat id: a private chat (groups and channels have negative ids). */
const PRIVATE_CHAT = /^[1-9]\d{0,19}$/;

/** The GitHub user id of the event's sender, when it names one. */
function senderIdOf(event: ForgeEvent): string | undefined {
  const sender = event.payload.sender;
  if (typeof sender !== "object" || sender === null) return undefined;
  const id = (sender as Record<string, unknown>).id;
  return typeof id === "number" && Number.isSafeInteger(id) ? String(id) : undefined;
}

/** Whether `target` is the private chat of the event's sender, who asked not to get their own. */
export async function isOwnActionSkipped(
  kv: Kv,
  event: ForgeEvent,
  target: Target,
): Promise<boolean> {
  if (event.provider !== "github" || target.platform !== "telegram") return false;
  if (!PRIVATE_CHAT.test(target.chatId)) return false;
  const senderId = senderIdOf(event);
  if (senderId === undefined) return false;
  const link = await getTelegramLink(kv, target.chatId);
  if (link?.userId !== senderId) return false;
  return (await getUserPreferences(kv, senderId)).skipOwnActions;
}
