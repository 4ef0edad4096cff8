/**
 * Who a notification mentions in the chat: the GitHub logins the message names (requested
 * reviewers, assignees) looked up among the linked chat users, once per event. A route's
 * message mentions only the members of the route's group (by GitHub login): a login that is
 * no member of the group stays plain text, so no group learns or pings the chat accounts of
 * people outside it. Only GitHub events are looked up (other forges' users are not GitHub
 * accounts), and only values that are GitHub logins; unlinked users stay plain text too.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Message } from "../format/message.ts";
import { MAX_MENTIONED_USERS, type MentionedUsers, NO_MENTIONS } from "../format/mentions.ts";
import { chatUsersLinkedTo, normalizeGithubLogin } from "../store/auth/links.ts";
import type { ForgeEvent, Group } from "../types.ts";

/** Most logins looked up for one message. */
const MAX_LOGINS = 10;

/** The chat users linked to one GitHub login. */
interface LinkedUsers {
  discord: string[];
  telegram: string[];
}

/** The GitHub logins `message` names (lower case → as written), at most {@link MAX_LOGINS}. */
function namedLogins(message: Message): Map<string, string> {
  const logins = new Map<string, string>();
  for (const login of message.mentions ?? []) {
    const normalized = normalizeGithubLogin(login);
    if (normalized && !logins.has(normalized)) logins.set(normalized, login);
    if (logins.size >= MAX_LOGINS) break;
  }
  return logins;
}

/** The members' GitHub logins of `group`, lower case. */
function memberLogins(group: Group): Set<string> {
  const logins = new Set<string>();
  for (const member of group.members) {
    const normalized = normalizeGithubLogin(member.login);
    if (normalized) logins.add(normalized);
  }
  return logins;
}

/**
 * The linked Discord and Telegram users that `message` mentions in the routes of each of
 * `groups`, by group id: only the group's members among the logins the message names.
 * A group none of whose members is named is absent (it mentions no one).
 */
export async function resolveMentions(
  kv: Kv,
  event: ForgeEvent,
  message: Message,
  groups: Iterable<Group>,
): Promise<Map<string, MentionedUsers>> {
  const byGroup = new Map<string, MentionedUsers>();
  if (event.provider !== "github" || !message.mentions?.length) return byGroup;
  const logins = namedLogins(message);
  const linked = new Map<string, LinkedUsers>();
  for (const group of groups) {
    const members = memberLogins(group);
    const discordUserIds = new Set<string>();
    const telegramUsers: MentionedUsers["telegramUsers"] = [];
    for (const [normalized, login] of logins) {
      if (!members.has(normalized)) continue;
      let users = linked.get(normalized);
      if (!users) {
        users = {
          discord: await chatUsersLinkedTo(kv, "discord", normalized),
          telegram: await chatUsersLinkedTo(kv, "telegram", normalized),
        };
        linked.set(normalized, users);
      }
      for (const id of users.discord) discordUserIds.add(id);
      for (const id of users.telegram) telegramUsers.push({ userId: id, login });
    }
    if (discordUserIds.size === 0 && telegramUsers.length === 0) continue;
    byGroup.set(group.id, {
      discordUserIds: [...discordUserIds].slice(0, MAX_MENTIONED_USERS),
      telegramUsers: telegramUsers.slice(0, MAX_MENTIONED_USERS),
    });
  }
  return byGroup;
}

/** What a route of `groupId` mentions, from {@link resolveMentions}' answer. */
export function mentionsOfGroup(
  byGroup: ReadonlyMap<string, MentionedUsers>,
  groupId: string,
): MentionedUsers {
  return byGroup.get(groupId) ?? NO_MENTIONS;
}
