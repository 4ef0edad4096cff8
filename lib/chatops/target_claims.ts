/**
 * The chat commands' entry to claiming a target (`/gh subscribe <group>`): the target arrives
 * as the chat layer gives it (ids as strings or numbers, perhaps with a thread or topic), is
 * validated here, and claimed by `claimTarget` in lib/store/config/target_claims.ts.
 */
import type { Kv } from "../store/backend/types.ts";
import { targetRefSchema } from "../model/schema.ts";
import type { AuditActor } from "../store/telemetry/audit.ts";
import { type ClaimResult, claimTarget } from "../store/config/target_claims.ts";

/** The channel or chat part of a target as the chat layer gives it (ids as strings or numbers). */
function refInput(target: unknown): unknown {
  if (typeof target !== "object" || target === null) return target;
  const { threadId: _thread, topicId: _topic, ...ref } = target as Record<string, unknown>;
  return ref;
}

/**
 * Claims `target` (a Discord channel or Telegram chat; a thread or topic claims its channel or
 * chat) for `groupId` on behalf of `actor`; `invalid_target` when it is neither. Call it only
 * after the platform confirmed that the claimer manages the channel or chat.
 */
export async function claimChatTarget(
  kv: Kv,
  groupId: string,
  target: unknown,
  actor: AuditActor,
  now: number = Date.now(),
): Promise<ClaimResult> {
  const parsed = targetRefSchema.safeParse(refInput(target));
  if (!parsed.success) {
    return { ok: false, reason: "invalid_target", message: "That is not a channel or chat id." };
  }
  return await claimTarget(kv, groupId, parsed.data, actor, now);
}
