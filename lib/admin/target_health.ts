/**
 * Resume and Discard for a paused target of a group (the console's buttons): a resume puts what the target held back into its lane, in order, and makes it healthy;
 * a discard fails what it held, each log saying who discarded it. Both are audited, and only an
 * owner or admin of the group (or a super admin) may do them. The target key's format is checked
 * by the request schema (`targetHealthBodySchema`) before either runs.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Config } from "../config.ts";
import { HttpError } from "../fresh/mod.ts";
import { newAuditEntry } from "../store/telemetry/audit.ts";
import { retentionMs } from "../store/delivery/send_logs.ts";
import { discardHeld, readTargetHealth } from "../store/delivery/target_health.ts";
import { resumeTargetAs } from "../delivery/resume_target.ts";
import type { Principal } from "../types.ts";
import { actorOf, requireGroupEntry } from "./guards.ts";

/** `POST /admin/api/groups/:id/target-health/resume`: sends what the target held, in order. */
export async function resumeGroupTarget(
  kv: Kv,
  principal: Principal,
  groupId: string,
  targetKey: string,
): Promise<{ resumed: number }> {
  const entry = await requireGroupEntry(kv, principal, groupId, "edit");
  const outcome = await resumeTargetAs(
    kv,
    actorOf(principal),
    groupId,
    entry.internalId,
    targetKey,
    "console",
  );
  if (outcome === null) throw new HttpError(404, `Target ${targetKey} was never paused`);
  return outcome;
}

/** `POST /admin/api/groups/:id/target-health/discard`: fails what the target held. */
export async function discardGroupTarget(
  kv: Kv,
  config: Config,
  principal: Principal,
  groupId: string,
  targetKey: string,
): Promise<{ discarded: number }> {
  const entry = await requireGroupEntry(kv, principal, groupId, "edit");
  const health = await readTargetHealth(kv, entry.internalId, targetKey);
  if (health.value === null) throw new HttpError(404, `Target ${targetKey} was never paused`);
  const now = Date.now();
  const audit = newAuditEntry({
    actor: { userId: principal.userId, login: principal.login },
    action: "target.discard",
    groupId,
    target: targetKey,
  }, now);
  const outcome = await discardHeld(
    kv,
    entry.internalId,
    targetKey,
    audit,
    now,
    retentionMs(config.sendLogRetentionDays),
  );
  return { discarded: outcome.count };
}
