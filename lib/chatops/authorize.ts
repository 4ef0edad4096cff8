/**
 * Who may act on what from a chat: one rule set for buttons and commands, on Discord and
 * Telegram. GitHub still decides what the linked account may do; these rules decide what
 * Switchyard lets a chat ask for at all.
 *
 * - A notification is acted on only while the group that sent it is bound to its repository:
 *   delivery records a notification as actionable only when the event reached the group through
 *   the global ingress of the group's GitHub App installation, or the group's `owners` names the
 *   repository's owner (both set only by a super admin or GitHub); a press re-checks that the
 *   group still has that binding.
 * - A pull request or issue named in a command (`owner/repo#n`), or a repository to open an
 *   issue in, in a chat that routes post into must be a repository one of those routes' groups
 *   is bound to: its `owners` names the owner,
 *   or the group is bound to an installation and the chat holds a notification of that
 *   repository the group sent.
 * - Discord roles: a button needs one of its route's `discordRoleIds`; a command needs, for each
 *   route posting into the channel that names roles, one of that route's roles, so a command
 *   never does what the channel's buttons would refuse. Telegram has no roles.
 */
import type { Kv } from "../store/backend/types.ts";
import { getGroup, listGroups } from "../store/config/groups.ts";
import { type MessageRef, recentMessageRefs } from "../store/delivery/message_refs.ts";
import { getGroupRoutes, getRoutes } from "../store/config/routes.ts";
import { type TargetRef, targetRefKey } from "../target_ref.ts";
import type { Group, Platform, Route } from "../types.ts";
import { type IssueRef, refText } from "../format/issue_ref.ts";
import { ownersName } from "../delivery/group_binding.ts";

/** Where a chat action is asked: the chat routes know, and the ids notifications are kept by. */
export interface ChatPlace {
  platform: Platform;
  /** The channels or chats routes name (a Discord thread's channel, a Telegram chat by id or `@name`). */
  chats: TargetRef[];
  /** The chat ids notifications are recorded under (a Discord thread or channel, a Telegram chat). */
  recordedIn: string[];
}

/**
 * What an action is about: a notification's record, an item named in a command, or a
 * repository named in a command (to open an issue in).
 */
export type ActionSubject =
  | { kind: "notification"; notification: MessageRef }
  | { kind: "named"; ref: IssueRef }
  | { kind: "repository"; owner: string; repo: string };

/** Notifications of a chat read for evidence of a repository's binding. */
const EVIDENCE_LIMIT = 100;

/** Whether a notification the group sent about `repository` may still be acted on. */
function stillBound(group: Group, repository: string): boolean {
  return ownersName(group, repository) || group.installationId !== undefined;
}

function postsInto(route: Route, keys: ReadonlySet<string>): boolean {
  return route.targets.some((target) => keys.has(targetRefKey(target)));
}

/** Whether the held roles pass every route of `routes` that names roles. */
function rolesPass(routes: readonly Route[], held: ReadonlySet<string>): boolean {
  return routes.every((route) =>
    (route.discordRoleIds ?? []).length === 0 ||
    route.discordRoleIds!.some((role) => held.has(role))
  );
}

async function notificationRefusal(
  kv: Kv,
  notification: MessageRef,
  roles: ReadonlySet<string> | null,
): Promise<string | null> {
  const { groupId, routeId, repository } = notification.subject;
  if (roles !== null) {
    const route = (await getGroupRoutes(kv, groupId)).routes.find((r) => r.id === routeId);
    if (!route) return "The route that sent this notification no longer exists.";
    if (!rolesPass([route], roles)) {
      return "Only members with one of this notification's roles may use its buttons.";
    }
  }
  const group = await getGroup(kv, groupId);
  if (!group || !stillBound(group, repository)) {
    return `Group ${groupId} is no longer bound to ${repository} (its GitHub App installation ` +
      "or owners), so Switchyard does not act on this notification.";
  }
  return null;
}

/** Whether the chat holds a notification about `repository` sent by one of `groupIds`. */
async function recordedHere(
  kv: Kv,
  place: ChatPlace,
  repository: string,
  groupIds: ReadonlySet<string>,
): Promise<boolean> {
  const wanted = repository.toLowerCase();
  for (const chatId of place.recordedIn) {
    const refs = await recentMessageRefs(kv, place.platform, chatId, EVIDENCE_LIMIT);
    const found = refs.some((ref) =>
      ref.subject.repository.toLowerCase() === wanted && groupIds.has(ref.subject.groupId)
    );
    if (found) return true;
  }
  return false;
}

async function namedRefusal(
  kv: Kv,
  place: ChatPlace,
  named: { owner: string; repo: string; text: string },
  roles: ReadonlySet<string> | null,
): Promise<string | null> {
  const keys = new Set(place.chats.map(targetRefKey));
  const routes = (await getRoutes(kv)).routes.filter((route) => postsInto(route, keys));
  if (routes.length === 0) return null;
  if (roles !== null && !rolesPass(routes, roles)) {
    return "Only members holding the roles of the routes posting into this channel may act " +
      "from it.";
  }
  const repository = `${named.owner}/${named.repo}`;
  const groupIds = new Set(routes.map((route) => route.groupId));
  const groups = (await listGroups(kv)).filter((group) => groupIds.has(group.id));
  if (groups.some((group) => ownersName(group, repository))) return null;
  const installed = new Set(
    groups.filter((group) => group.installationId !== undefined).map((group) => group.id),
  );
  if (installed.size > 0 && await recordedHere(kv, place, repository, installed)) return null;
  return `${named.text} is not in a repository of the groups posting here (their GitHub App ` +
    "installation or owners), so Switchyard does not act on it from this chat.";
}

/**
 * Why the chat may not act on `subject` from `place`, or null when it may. `roles` are the
 * Discord member's roles (null on Telegram, which has none). Never calls GitHub.
 */
export async function chatActionRefusal(
  kv: Kv,
  place: ChatPlace,
  subject: ActionSubject,
  roles: ReadonlySet<string> | null,
): Promise<string | null> {
  switch (subject.kind) {
    case "notification":
      return await notificationRefusal(kv, subject.notification, roles);
    case "named":
      return await namedRefusal(kv, place, { ...subject.ref, text: refText(subject.ref) }, roles);
    case "repository":
      return await namedRefusal(kv, place, {
        ...subject,
        text: `${subject.owner}/${subject.repo}`,
      }, roles);
  }
}
