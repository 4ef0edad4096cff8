/**
 * Which groups a chat command speaks for: the groups allowed to post into the chat, and of those
 * the ones the person running it owns or administers (what mute, remind and resume may change).
 */
import type { Kv } from "../store/backend/types.ts";
import { allowedKeysOf } from "../store/config/allowed_targets.ts";
import { type GroupEntry, readGroupSetCached } from "../store/config/group_set.ts";
import { type TargetRef, targetRefKey } from "../target_ref.ts";

/** Whether `actor` is an owner or admin among `members`. */
export function managesGroup(
  members: readonly { userId: string; role: string }[],
  actor: { userId: string },
): boolean {
  return members.some((member) =>
    member.userId === actor.userId && (member.role === "owner" || member.role === "admin")
  );
}

/** The groups allowed to post into `chat`, and those of them `actor` manages. */
export async function groupsOfChat(
  kv: Kv,
  actor: { userId: string },
  chat: TargetRef,
): Promise<{ subscribed: GroupEntry[]; managed: GroupEntry[] }> {
  const { entries } = await readGroupSetCached(kv);
  const allowed = await allowedKeysOf(kv, entries.map((entry) => entry.group.id));
  const key = targetRefKey(chat);
  const subscribed = entries.filter((entry) => allowed.get(entry.group.id)?.has(key));
  return {
    subscribed,
    managed: subscribed.filter((entry) => managesGroup(entry.group.members, actor)),
  };
}
