/**
 * Target health in the lane (`lib/store/delivery/target_health.ts` keeps the records): before a unit is
 * sent, a broken or paused target holds it; after an attempt, the answer moves the target's
 * state. A permanent refusal (Discord 403/404, Telegram 403 or 400 "chat not found") makes it
 * `broken` and holds the unit that met it; a network error, timeout or 5xx makes it `failing`,
 * and `paused` (the unit held) once failures in a row reach the policy's count over at least
 * its window; a message sent makes a failing target healthy again. A change that holds nothing
 * is written in the commit that records the attempt's outcome. The commit that pauses the
 * target also writes its audit entry and count; the group's owners are then told once
 * (`pause_notice.ts`). Each lane keeps what it read of its targets' health, and every hold is
 * checked against the record as read, so a resume from the console is never undone.
 */
import type { KvEntry, KvEntryMaybe } from "../store/backend/types.ts";
import { newAuditEntry } from "../store/telemetry/audit.ts";
import { historyIdOf, type SendLog } from "../store/delivery/send_logs.ts";
import {
  type HealthWrite,
  holdUnit,
  isHolding,
  readTargetHealth,
  type TargetHealth,
  targetKeyOf,
} from "../store/delivery/target_health.ts";
import type { SendResult } from "../platform/send_result.ts";
import { describeTargetRef } from "../target_ref.ts";
import type { Platform } from "../types.ts";
import { chatPlatform, type PlatformAnswer } from "./adapters.ts";
import type { DeliveryContext } from "./context.ts";
import { tellOwners } from "./pause_notice.ts";

/** When failures in a row pause a target. */
export interface HealthPolicy {
  /** Failures in a row that pause it… */
  pauseAfterFailures: number;
  /** …once the first of them is at least this old (ms). */
  pauseAfterMs: number;
}

/** Five failures in a row over at least ten minutes. */
export const DEFAULT_HEALTH_POLICY: HealthPolicy = {
  pauseAfterFailures: 5,
  pauseAfterMs: 10 * 60 * 1000,
};

/** How long a lane waits for a resume that puts many held units back in chunks. */
const RESUME_GRACE_MS = 60_000;
/** How long the lane waits before looking at a resuming target again. */
const RESUME_POLL_MS = 200;

/** The health records a lane read, by group internal id and target key. */
export type HealthSeen = Map<string, KvEntryMaybe<TargetHealth>>;

const SYSTEM_ACTOR = { userId: "system", login: "system" };

/** Whether a platform's answer means the bot cannot post there until someone acts. */
export function isPermanentRefusal(platform: Platform, answer: PlatformAnswer): boolean {
  return chatPlatform(platform).refusedForGood(answer);
}

function seenKey(log: SendLog): string {
  return `${historyIdOf(log)} ${targetKeyOf(log.target)}`;
}

/** The health of the unit's target as the lane last read it (read now when not yet). */
async function healthOf(
  ctx: DeliveryContext,
  seen: HealthSeen,
  log: SendLog,
): Promise<KvEntryMaybe<TargetHealth>> {
  const key = seenKey(log);
  const known = seen.get(key);
  if (known) return known;
  const read = await readTargetHealth(ctx.kv, historyIdOf(log), targetKeyOf(log.target));
  seen.set(key, read);
  return read;
}

/** The health as read, if known and not holding: a unit read ahead may go without a look. */
export function knownClear(seen: HealthSeen, log: SendLog): boolean {
  const known = seen.get(seenKey(log));
  return known !== undefined && (known.value === null || !isHolding(known.value.state));
}

/** What the lane does with a unit whose target holds: wait for a resume, or hold it. */
export async function holdIfPaused(
  ctx: DeliveryContext,
  seen: HealthSeen,
  lane: string,
  log: KvEntry<SendLog>,
): Promise<"send" | "held" | { waitMs: number }> {
  const health = await healthOf(ctx, seen, log.value);
  if (health.value === null || !isHolding(health.value.state)) return "send";
  seen.delete(seenKey(log.value)); // look again next time: a resume may come meanwhile
  const resuming = health.value.resumingSince;
  if (resuming !== undefined && ctx.now() - resuming < RESUME_GRACE_MS) {
    return { waitMs: RESUME_POLL_MS };
  }
  const { nextAttemptAt: _due, ...rest } = log.value;
  const next: SendLog = { ...rest, error: heldError(health.value), updatedAt: ctx.now() };
  const held = await holdUnit(ctx.kv, lane, log, next, { health }, ctx.now(), ctx.retentionMs);
  return held ? "held" : { waitMs: 0 };
}

function heldError(health: TargetHealth): string {
  const why = health.lastError ? `: ${health.lastError.slice(0, 200)}` : "";
  return `held: ${describeTargetRef(health.target)} is paused (${health.state}${why}); ` +
    "resume it with `/gh resume` in the chat or Resume on the group's page in the console";
}

/** The target's health after `result` (null when it does not change). */
function healthAfter(
  policy: HealthPolicy,
  current: TargetHealth | null,
  log: SendLog,
  result: SendResult,
  now: number,
): TargetHealth | null {
  const base = { groupId: log.groupId, target: log.target, updatedAt: now };
  switch (result.kind) {
    case "sent":
      return current && current.state !== "healthy"
        ? { ...base, state: "healthy", failures: 0 }
        : null;
    case "rate_limited":
      return null;
    case "rejected":
      return isPermanentRefusal(log.platform, result)
        ? {
          ...base,
          state: "broken",
          failures: (current?.failures ?? 0) + 1,
          lastError: result.error,
          httpStatus: result.httpStatus,
          pausedAt: now,
        }
        : null;
    case "retryable": {
      const failures = (current?.failures ?? 0) + 1;
      const failingSince = current?.failingSince ?? now;
      const pause = failures >= policy.pauseAfterFailures &&
        now - failingSince >= policy.pauseAfterMs;
      return {
        ...base,
        state: pause ? "paused" : "failing",
        failures,
        failingSince,
        lastError: result.error,
        ...(result.httpStatus === undefined ? {} : { httpStatus: result.httpStatus }),
        ...(pause ? { pausedAt: now } : {}),
      };
    }
  }
}

/**
 * Moves the target's health after an attempt whose outcome is `next`. When the answer pauses
 * the target, the unit is held instead (its log `next` with the reason) in the commit that
 * pauses it, with the audit entry and the count, and the owners are told: "held" then.
 * Otherwise the outcome is to be recorded as usual, with the health write answered here when
 * the health changed (null when not), so both go in one commit (`recordOutcome`).
 */
export async function noteAnswer(
  ctx: DeliveryContext,
  seen: HealthSeen,
  lane: string,
  log: KvEntry<SendLog>,
  next: SendLog,
  result: SendResult,
): Promise<"held" | HealthWrite | null> {
  const health = await healthOf(ctx, seen, log.value);
  const now = ctx.now();
  const changed = healthAfter(ctx.health, health.value, log.value, result, now);
  if (changed === null) return null;
  const internalId = historyIdOf(log.value);
  seen.delete(seenKey(log.value));
  if (!isHolding(changed.state)) return { internalId, read: health, next: changed };
  const { nextAttemptAt: _due, ...rest } = next;
  const heldLog: SendLog = { ...rest, status: "retrying", error: heldError(changed) };
  const audit = newAuditEntry({
    actor: SYSTEM_ACTOR,
    action: "target.pause",
    groupId: log.value.groupId,
    target: targetKeyOf(log.value.target),
    detail: { state: changed.state, httpStatus: changed.httpStatus, error: changed.lastError },
  }, now);
  const held = await holdUnit(
    ctx.kv,
    lane,
    log,
    heldLog,
    {
      health,
      next: changed,
      audit: { entry: audit, internalId },
      attempted: true,
    },
    now,
    ctx.retentionMs,
  );
  if (!held) return null;
  ctx.log.warn("target paused", {
    groupId: log.value.groupId,
    target: targetKeyOf(log.value.target),
    state: changed.state,
    error: changed.lastError,
  });
  await tellOwners(ctx, changed).catch((error) =>
    ctx.log.warn("owners not told of a paused target", { error })
  );
  return "held";
}
