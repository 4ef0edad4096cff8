/**
 * The one way a person resumes a group's paused target, from the console or from the chat:
 * what the target held goes back into its lane, in order, and the target is healthy again,
 * audited `target.resume` with where it was asked from.
 */
import type { Kv } from "../store/backend/types.ts";
import { type AuditActor, newAuditEntry } from "../store/telemetry/audit.ts";
import { resumeTarget } from "../store/delivery/target_health.ts";

/**
 * Resumes a group's paused target as `actor`, who may edit `groupId` (checked by the caller);
 * null when the target has no health record.
 */
export async function resumeTargetAs(
  kv: Kv,
  actor: AuditActor,
  groupId: string,
  internalId: string,
  targetKey: string,
  via: "console" | "chat",
): Promise<{ resumed: number } | null> {
  const now = Date.now();
  const audit = newAuditEntry(
    { actor, action: "target.resume", groupId, target: targetKey, detail: { via } },
    now,
  );
  const outcome = await resumeTarget(kv, internalId, targetKey, audit, now);
  return outcome && { resumed: outcome.count };
}
