/**
 * Mentions of linked chat users: a notification that names GitHub users (requested reviewers,
 * assignees) pings the Discord users and links the Telegram users linked to them. Who is linked
 * is looked up by delivery; this module only renders what it is given, and renders nothing for
 * ids that are not a platform's numeric ids.
 */
import { escapeHtml } from "./text.ts";

/** The chat users a message mentions, per platform (already resolved from GitHub logins). */
export interface MentionedUsers {
  /** Discord user ids, pinged as `<@id>` and allowed exactly. */
  discordUserIds: string[];
  /** Telegram users, linked as `tg://user?id=…` with the GitHub login as the text. */
  telegramUsers: TelegramMention[];
}

/** A Telegram user to link, and the GitHub login the message names them by. */
export interface TelegramMention {
  userId: string;
  login: string;
}

/** At most this many users are mentioned in one message. */
export const MAX_MENTIONED_USERS = 25;

const NUMERIC_ID = /^\d{1,20}$/;

/** No one mentioned. */
export const NO_MENTIONS: MentionedUsers = { discordUserIds: [], telegramUsers: [] };

/**
 * The Telegram line that links the mentioned users (`@login`, each a link to the chat user),
 * or "" when there is none.
 */
export function telegramMentionLine(users: readonly TelegramMention[]): string {
  const seen = new Set<string>();
  const links: string[] = [];
  for (const user of users) {
    if (!NUMERIC_ID.test(user.userId) || seen.has(user.userId)) continue;
    seen.add(user.userId);
    links.push(`<a href="tg://user?id=${user.userId}">@${escapeHtml(user.login)}</a>`);
    if (links.length >= MAX_MENTIONED_USERS) break;
  }
  return links.join(", ");
}
