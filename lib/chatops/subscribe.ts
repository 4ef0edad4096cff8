/**
 * `/gh subscribe <group>` and `/gh unsubscribe <group>`: a linked user who is an owner or admin
 * of a group puts the chat on the group's allowed targets, or takes it off. The chat layer
 * first checks that the user manages the chat on its platform (Discord: Manage Channels;
 * Telegram: a chat administrator) and gives the chat's channel or chat id (a thread or topic
 * stands for its channel or chat). Both changes are audited with the user's GitHub account.
 */
import type { Kv } from "../store/backend/types.ts";
import { claimChatTarget } from "./target_claims.ts";
import { ID_PATTERN } from "../ids.ts";
import { getAllowedTargets, replaceAllowedTargets } from "../store/config/allowed_targets.ts";
import type { AuditActor } from "../store/telemetry/audit.ts";
import { readGroupEntry } from "../store/config/group_set.ts";
import { describeTargetRef, type TargetRef, targetRefKey } from "../target_ref.ts";
import type { ChatReply } from "./act.ts";

const BAD_GROUP = "Give a group id: 1-64 lower-case letters, digits, _ or -.";

function placeOf(target: TargetRef): string {
  return target.platform === "discord" ? "this channel" : "this chat";
}

/**
 * Claims the chat `target` for `groupId` as `actor` (the user's linked GitHub account). Call it
 * only once the platform confirmed that the user manages the chat.
 */
export async function subscribeChat(
  kv: Kv,
  actor: AuditActor,
  groupId: string,
  target: TargetRef,
  now: number = Date.now(),
): Promise<ChatReply> {
  const id = groupId.trim();
  if (!ID_PATTERN.test(id)) return { ok: false, text: BAD_GROUP };
  const result = await claimChatTarget(kv, id, target, actor, now);
  if (!result.ok) return { ok: false, text: result.message };
  return {
    ok: true,
    text: result.added
      ? `Group ${id} may now post into ${placeOf(target)}; its routes can name it as a target.`
      : `Group ${id} already may post into ${placeOf(target)}.`,
  };
}

/**
 * Takes the chat `target` off the allowed targets of `groupId`, for `actor` who must be an
 * owner or admin of the group. Call it only once the platform confirmed that the user manages
 * the chat. Routes that still name the chat stop delivering there.
 */
export async function unsubscribeChat(
  kv: Kv,
  actor: AuditActor,
  groupId: string,
  target: TargetRef,
  now: number = Date.now(),
): Promise<ChatReply> {
  const id = groupId.trim();
  if (!ID_PATTERN.test(id)) return { ok: false, text: BAD_GROUP };
  const { entry } = await readGroupEntry(kv, id);
  if (entry === null) return { ok: false, text: `There is no group ${id}.` };
  const member = entry.group.members.find((m) => m.userId === actor.userId);
  if (!member || member.role === "viewer") {
    return {
      ok: false,
      text: `Only an owner or admin of group ${id} can unsubscribe it from ${placeOf(target)}.`,
    };
  }
  const key = targetRefKey(target);
  const allowed = await getAllowedTargets(kv, id);
  const remaining = allowed.targets.filter((entry) => targetRefKey(entry.target) !== key);
  if (remaining.length === allowed.targets.length) {
    return { ok: true, text: `Group ${id} was not subscribed to ${placeOf(target)}.` };
  }
  const result = await replaceAllowedTargets(
    kv,
    id,
    remaining.map((entry) => entry.target),
    actor,
    allowed.versionstamp,
    now,
  );
  if (!result.ok) {
    return { ok: false, text: "The allowed targets changed meanwhile; try again." };
  }
  return {
    ok: true,
    text: `Group ${id} no longer posts into ${placeOf(target)} (${describeTargetRef(target)}).`,
  };
}
