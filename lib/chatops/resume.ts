/**
 * `/gh resume` from a chat: the targets of this place (the chat or channel, and the topic or
 * thread it was sent in) that are paused for a group are resumed, as the console's Resume
 * does (`lib/delivery/resume_target.ts`, audited `via: "chat"`), for each group the actor owns or
 * administers. Only the groups allowed to post into the chat are looked at: another group's
 * health is never read here. The bot answering in the place is the sign that it is back.
 */
import type { Kv } from "../store/backend/types.ts";
import { resumeTargetAs } from "../delivery/resume_target.ts";
import { isHolding, readTargetHealth } from "../store/delivery/target_health.ts";
import type { AuditActor } from "../store/telemetry/audit.ts";
import type { TargetRef } from "../target_ref.ts";
import type { ChatReply } from "./act.ts";
import { groupsOfChat, managesGroup } from "./chat_groups.ts";

/** Where `/gh resume` was sent: the health keys it covers and how to name it. */
export interface ResumePlace {
  /** The channel or chat the place belongs to: the groups allowed there are the ones looked at. */
  chat: TargetRef;
  /** `telegram:<chat>[/<topic>]` or `discord:<channel or thread>`, the place's own first. */
  targetKeys: readonly string[];
  /** "this chat" or "this channel". */
  name: string;
}

function heldText(count: number): string {
  return count === 1 ? "1 held message is on the way" : `${count} held messages are on the way`;
}

/** Resumes what is paused in `place` for the groups `actor` manages; answers in words. */
export async function resumeFromChat(
  kv: Kv,
  actor: AuditActor,
  place: ResumePlace,
): Promise<ChatReply> {
  const { subscribed: entries } = await groupsOfChat(kv, actor, place.chat);
  const found = await Promise.all(
    entries.flatMap((entry) =>
      place.targetKeys.map(async (targetKey) => {
        const health = await readTargetHealth(kv, entry.internalId, targetKey);
        return health.value !== null && isHolding(health.value.state) ? { entry, targetKey } : null;
      })
    ),
  );
  const paused = found.filter((item) => item !== null);
  if (paused.length === 0) return { ok: true, text: `Nothing is paused in ${place.name}.` };
  const mine = paused.filter(({ entry }) => managesGroup(entry.group.members, actor));
  if (mine.length === 0) {
    return {
      ok: false,
      text: `Only an owner or admin of the group paused in ${place.name} can resume it; ` +
        "ask one of them, or use Resume on the group's page in the console.",
    };
  }
  let resumed = 0;
  const groups = new Set<string>();
  for (const { entry, targetKey } of mine) {
    const groupId = entry.group.id;
    const outcome = await resumeTargetAs(kv, actor, groupId, entry.internalId, targetKey, "chat");
    resumed += outcome?.resumed ?? 0;
    groups.add(`${entry.group.name} (${groupId})`);
  }
  const others = paused.length - mine.length;
  return {
    ok: true,
    text: `Resumed ${place.name} for ${[...groups].join(", ")}: ${heldText(resumed)}.` +
      (others > 0 ? ` ${others} more paused here need an owner or admin of their group.` : ""),
  };
}
