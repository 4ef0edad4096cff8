/**
 * Resume and Discard for a paused target of a group (the console's buttons): a resume puts what the target held back into its lane, in order, and makes it healthy;
 * a discard fails what it held, each log saying who discarded it. Both are audited, and only an
 * owner or admin of the group (or a super admin) may do them.
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

/** A target key as health records spell it: `discord:<id>`, `telegram:<chat>[/<topic>]`. */
const TARGET_KEY = /^(discord:\d{1,20}|telegram:(-?\d{1,20}|@[A-Za-z0-9_]{4,32})(\/\d{1,10})?)$/;

/** The target key, or 400. */
function requireTargetKey(value: unknown): string {
  if (typeof value !== "string" || !TARGET_KEY.test(value)) {
    throw new HttpError(
      400,
      "target: give a target key like discord:123 or telegram:-100123 (or telegram:-100123/7)",
    );
  }
  return value;
}

/** `POST /admin/api/groups/:id/target-health/resume`: sends what the target held, in order. */
export async function resumeGroupTarget(
  kv: Kv,
  principal: Principal,
  groupId: string,
  target: unknown,
): Promise<{ resumed: number }> {
  const targetKey = requireTargetKey(target);
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
  target: unknown,
): Promise<{ discarded: number }> {
  const targetKey = requireTargetKey(target);
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
