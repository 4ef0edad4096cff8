/**
 * Who a notification mentions in the chat: the GitHub logins the message names (requested
 * reviewers, assignees) looked up among the linked chat users, once per event. Only GitHub
 * events are looked up (other forges' users are not GitHub accounts), and only values that are
 * GitHub logins; unlinked users stay plain text in the message.
 */
import type { Message } from "../format/message.ts";
import { MAX_MENTIONED_USERS, type MentionedUsers, NO_MENTIONS } from "../format/mentions.ts";
import { chatUsersLinkedTo, normalizeGithubLogin } from "../store/links.ts";
import type { ForgeEvent } from "../types.ts";

/** Most logins looked up for one message. */
const MAX_LOGINS = 10;

/** The linked Discord and Telegram users of the logins `message` mentions. */
export async function resolveMentions(
  kv: Deno.Kv,
  event: ForgeEvent,
  message: Message,
): Promise<MentionedUsers> {
  if (event.provider !== "github" || !message.mentions?.length) return NO_MENTIONS;
  const logins = new Map<string, string>();
  for (const login of message.mentions) {
    const normalized = normalizeGithubLogin(login);
    if (normalized && !logins.has(normalized)) logins.set(normalized, login);
    if (logins.size >= MAX_LOGINS) break;
  }
  const discordUserIds = new Set<string>();
  const telegramUsers: MentionedUsers["telegramUsers"] = [];
  for (const [normalized, login] of logins) {
    for (const id of await chatUsersLinkedTo(kv, "discord", normalized)) discordUserIds.add(id);
    for (const id of await chatUsersLinkedTo(kv, "telegram", normalized)) {
      telegramUsers.push({ userId: id, login });
    }
  }
  return {
    discordUserIds: [...discordUserIds].slice(0, MAX_MENTIONED_USERS),
    telegramUsers: telegramUsers.slice(0, MAX_MENTIONED_USERS),
  };
}
