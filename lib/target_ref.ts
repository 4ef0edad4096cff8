/**
 * Pure helpers over chat targets. Target ownership knows a target by its Discord channel or
 * Telegram chat: a Discord thread belongs to its parent channel and a Telegram topic to its
 * chat, so the allowlist of a group names channels and chats only. Delivery knows a target by
 * its lane (`laneKeyFor`). Browser-safe.
 */
import type { Target } from "./types.ts";

/** A channel or chat a group may be allowed to post into. */
export type TargetRef =
  | { platform: "discord"; channelId: string }
  | { platform: "telegram"; chatId: string };

/** The channel or chat of a target (its thread or topic dropped). */
export function targetRefOf(target: Target | TargetRef): TargetRef {
  return target.platform === "discord"
    ? { platform: "discord", channelId: target.channelId }
    : { platform: "telegram", chatId: target.chatId };
}

/**
 * The identity two refs share when they name the same channel or chat: `discord:<id>` or
 * `telegram:<id>` (an `@name` without case, as Telegram reads it).
 */
export function targetRefKey(target: Target | TargetRef): string {
  return target.platform === "discord"
    ? `discord:${target.channelId}`
    : `telegram:${target.chatId.toLowerCase()}`;
}

/** The target in words: `discord channel 123`, `telegram chat -100123`. */
export function describeTargetRef(target: Target | TargetRef): string {
  return target.platform === "discord"
    ? `discord channel ${target.channelId}`
    : `telegram chat ${target.chatId}`;
}

/** Who can claim the target from inside it: the channel's or the chat's managers. */
function claimHint(target: Target | TargetRef, groupId: string): string {
  const place = target.platform === "discord" ? "channel" : "chat";
  return `someone who manages the ${place} can claim it with /gh subscribe ${groupId}`;
}

/** Why a group may not post into `target`, with what would change that. */
export function notAllowedMessage(target: Target | TargetRef, groupId: string): string {
  return `${describeTargetRef(target)} is not an allowed target of group ${groupId}; ` +
    `a super admin can allow it (PUT /admin/api/groups/${groupId}/targets) or ` +
    claimHint(target, groupId);
}

/**
 * The lane of a target: a Discord channel or thread (each has its own rate
 * limit bucket), or a Telegram chat (its topics share the chat's limits).
 */
export function laneKeyFor(target: Target): string {
  switch (target.platform) {
    case "discord":
      return `discord:${target.threadId ?? target.channelId}`;
    case "telegram":
      return `telegram:${target.chatId}`;
    default:
      return `unknown:${JSON.stringify(target)}`;
  }
}
