/**
 * Target health: one record per group and target (a Discord channel or thread, a Telegram chat
 * or topic) saying whether the bot can post there: `healthy`, `failing` (recent errors, retried
 * as usual), `broken` (a permanent refusal: the bot was removed or the place is gone) or
 * `paused` (too many failures in a row over a window). A broken or paused target holds its
 * group's units: each leaves its lane for the target's held list (status still `retrying`,
 * never `dead`) in the same commit that records why, until a person resumes the target (the
 * held units go back into their lane, in event order, with a fresh retry schedule) or discards
 * them (each becomes `failed`, its log saying it was discarded). Records are keyed by the
 * group's internal id, so they follow the group through renames. Pauses, resumes and discards
 * are counted for `/metrics`.
 */
import type { AtomicOperation, Kv, KvEntry, KvEntryMaybe, KvU64 } from "../backend/types.ts";
import { addAuditEntry, type AuditEntry } from "../telemetry/audit.ts";
import {
  heldUnitKey,
  heldUnitsPrefix,
  laneEntryKey,
  targetHealthCounterKey,
  targetHealthCountersPrefix,
  targetHealthKey,
  targetHealthPrefix,
} from "../keys.ts";
import { appendToLane, getLaneRun, joinLane } from "./lanes.ts";
import { countOutcome } from "../telemetry/metrics.ts";
import { getSendLogEntry, historyIdOf, putSendLog, type SendLog } from "./send_logs.ts";
import type { Target } from "../../types.ts";

/** Where a target stands for one group. */
type TargetState = "healthy" | "failing" | "broken" | "paused";

/** One target's health for one group. */
export interface TargetHealth {
  /** The group's id when the record was last written. */
  groupId: string;
  target: Target;
  state: TargetState;
  /** Failures in a row (network errors, timeouts, 5xx; 429s are not failures). */
  failures: number;
  /** When the first of those failures came (Unix ms). */
  failingSince?: number;
  /** The platform's last refusal or error, in its words. */
  lastError?: string;
  httpStatus?: number;
  /** When the target was paused (Unix ms), while broken or paused. */
  pausedAt?: number;
  /** Set while a resume puts many held units back in chunks (Unix ms). */
  resumingSince?: number;
  updatedAt: number;
}

/** One unit held for a paused target: the lane it goes back to. */
interface HeldUnit {
  logId: string;
  lane: string;
  heldAt: number;
}

/** What the counters of `/metrics` count. */
type HealthChange = "paused" | "resumed" | "discarded";

/** True when the target holds its units until a person acts. */
export function isHolding(state: TargetState): boolean {
  return state === "broken" || state === "paused";
}

/** The key of a target's health: its Discord thread or channel, its Telegram chat and topic. */
export function targetKeyOf(target: Target): string {
  return target.platform === "discord"
    ? `discord:${target.threadId ?? target.channelId}`
    : `telegram:${target.chatId}${target.topicId === undefined ? "" : `/${target.topicId}`}`;
}

/** The health record of a group's target (value null when it never failed). */
export function readTargetHealth(
  kv: Kv,
  internalId: string,
  targetKey: string,
): Promise<KvEntryMaybe<TargetHealth>> {
  return kv.get<TargetHealth>(targetHealthKey(internalId, targetKey));
}

/** Most health records read for one group. */
const HEALTH_READ = 200;

/** A group's target health records (by the group's internal id), in key order. */
export async function listTargetHealth(kv: Kv, internalId: string): Promise<TargetHealth[]> {
  const found: TargetHealth[] = [];
  const entries = kv.list<TargetHealth>({ prefix: targetHealthPrefix(internalId) }, {
    limit: HEALTH_READ,
  });
  for await (const entry of entries) found.push(entry.value);
  return found;
}

/** A change of a target's health that goes into another commit (an attempt's outcome). */
export interface HealthWrite {
  /** The group's internal id. */
  internalId: string;
  /** The health as read for the decision (checked: the commit fails when it changed). */
  read: KvEntryMaybe<TargetHealth>;
  next: TargetHealth;
}

/** Adds `write` to `op`: the check of the health as read and the new record. */
export function addHealthWrite(op: AtomicOperation, write: HealthWrite): AtomicOperation {
  const key = targetHealthKey(write.internalId, targetKeyOf(write.next.target));
  return op.check({ key, versionstamp: write.read.versionstamp }).set(key, write.next);
}

/** What a hold writes besides the unit: the target's new health, its audit entry, a count. */
interface HoldExtras {
  /** The health as read for the decision (checked: the hold fails when it changed). */
  health: KvEntryMaybe<TargetHealth>;
  /** The new health, when the hold changes it (the unit that paused the target). */
  next?: TargetHealth;
  /** The audit entry of the pause, with the group's internal id to index it under. */
  audit?: { entry: AuditEntry; internalId: string };
  /** True when the unit's log records an attempt (its outcome is counted). */
  attempted?: boolean;
}

/**
 * Takes a unit out of its lane and holds it for its paused target: the send log (`next`, still
 * `retrying`) is written, the lane entry removed and the held entry written, with `extras`, in
 * one commit checked against the unit and the health read. False when either changed.
 */
export async function holdUnit(
  kv: Kv,
  lane: string,
  log: KvEntry<SendLog>,
  next: SendLog,
  extras: HoldExtras,
  now: number,
  retentionMs: number,
): Promise<boolean> {
  const internalId = historyIdOf(next);
  const key = targetKeyOf(next.target);
  const op = kv.atomic().check(log).check({
    key: targetHealthKey(internalId, key),
    versionstamp: extras.health.versionstamp,
  });
  putSendLog(op, next, log.value, retentionMs);
  if (extras.attempted) countOutcome(op, next, now);
  op.delete(laneEntryKey(lane, next.id));
  op.set(
    heldUnitKey(internalId, key, next.id),
    { logId: next.id, lane, heldAt: now } satisfies HeldUnit,
    {
      expireIn: retentionMs,
    },
  );
  if (extras.next) {
    op.set(targetHealthKey(internalId, key), extras.next);
    if (isHolding(extras.next.state)) op.sum(targetHealthCounterKey(next.platform, "paused"), 1n);
  }
  if (extras.audit) {
    addAuditEntry(
      op,
      extras.audit.entry,
      new Map([[extras.audit.entry.groupId ?? "", extras.audit.internalId]]),
    );
  }
  return (await op.commit()).ok;
}

/**
 * Whether the unit of `log` is held for its paused target. A hold and whatever puts the unit
 * back in its lane both check its send log, so a commit checked against the log as read
 * alongside this answer cannot cross a hold.
 */
export async function isHeld(kv: Kv, log: SendLog): Promise<boolean> {
  const key = heldUnitKey(historyIdOf(log), targetKeyOf(log.target), log.id);
  return (await kv.get(key)).versionstamp !== null;
}

/** Most held units read at once. */
const HELD_READ = 1_000;

/** The units held for a group's target, oldest event first (at most `limit`). */
export async function listHeldUnits(
  kv: Kv,
  internalId: string,
  targetKey: string,
  limit = HELD_READ,
): Promise<KvEntry<HeldUnit>[]> {
  const found: KvEntry<HeldUnit>[] = [];
  for await (
    const entry of kv.list<HeldUnit>({ prefix: heldUnitsPrefix(internalId, targetKey) }, { limit })
  ) {
    found.push(entry);
  }
  return found;
}

/** Held units put back in their lane per commit (two writes each). */
const RESUME_CHUNK = 200;
/** Held units discarded per commit (each is checked). */
const DISCARD_CHUNK = 4;
const COMMIT_ATTEMPTS = 10;

/** What a resume or a discard came to. */
interface HeldOutcome {
  /** Units sent again (resume) or discarded (discard). */
  count: number;
}

/** The health of a target that a person resumed: healthy, no failures. */
function healthyAgain(health: TargetHealth, now: number): TargetHealth {
  return {
    groupId: health.groupId,
    target: health.target,
    state: "healthy",
    failures: 0,
    updatedAt: now,
  };
}

/**
 * Resumes a group's target: its held units go back into their lane, oldest first, with a fresh
 * retry schedule, and the target is healthy again. Up to {@link RESUME_CHUNK} units go in the
 * commit that makes the target healthy, with the audit entry and the count; more are put back
 * first in chunks while the record says `resumingSince` (the lane waits meanwhile), so nothing
 * newer overtakes them. Null when the target has no health record.
 */
export async function resumeTarget(
  kv: Kv,
  internalId: string,
  targetKey: string,
  audit: AuditEntry,
  now: number,
): Promise<HeldOutcome | null> {
  let count = 0;
  for (let attempt = 0; attempt < COMMIT_ATTEMPTS; attempt++) {
    const health = await readTargetHealth(kv, internalId, targetKey);
    if (health.value === null) return null;
    const held = await listHeldUnits(kv, internalId, targetKey, RESUME_CHUNK + 1);
    const last = held.length <= RESUME_CHUNK;
    const chunk = held.slice(0, RESUME_CHUNK);
    const op = kv.atomic().check(health);
    if (chunk.length > 0) {
      const lane = chunk[0].value.lane;
      const run = await getLaneRun(kv, lane);
      const [first, ...rest] = chunk;
      appendToLane(op, lane, { logId: first.value.logId, failures: 0 }, run, now);
      for (const entry of rest) {
        joinLane(op, entry.value.lane, { logId: entry.value.logId, failures: 0 });
      }
      for (const entry of chunk) op.delete(entry.key);
    }
    const key = targetHealthKey(internalId, targetKey);
    if (last) {
      op.set(key, healthyAgain(health.value, now));
      op.sum(targetHealthCounterKey(health.value.target.platform, "resumed"), 1n);
      addAuditEntry(
        op,
        { ...audit, detail: { ...audit.detail, resumed: count + chunk.length } },
        new Map([[audit.groupId ?? "", internalId]]),
      );
    } else {
      op.set(key, {
        ...health.value,
        resumingSince: health.value.resumingSince ?? now,
        updatedAt: now,
      });
    }
    if (!(await op.commit()).ok) continue;
    count += chunk.length;
    if (last) return { count };
    attempt = -1; // a chunk went through: the attempts count again for the next one
  }
  throw new Error(`Cannot resume target ${targetKey}: it kept changing`);
}

/**
 * Discards the units held for a group's target: each becomes `failed`, its log saying who
 * discarded it (its body is kept for its retention, so it can still be redelivered); the audit
 * entry goes with the first chunk. The target stays paused until it is resumed.
 */
export async function discardHeld(
  kv: Kv,
  internalId: string,
  targetKey: string,
  audit: AuditEntry,
  now: number,
  retentionMs: number,
): Promise<HeldOutcome> {
  const held = await listHeldUnits(kv, internalId, targetKey);
  let count = 0;
  let audited = false;
  for (let start = 0; start < held.length || !audited; start += DISCARD_CHUNK) {
    const chunk = held.slice(start, start + DISCARD_CHUNK);
    const op = kv.atomic();
    let discarded = 0;
    for (const entry of chunk) {
      op.check(entry);
      const log = await getSendLogEntry(kv, entry.value.logId);
      op.delete(entry.key);
      if (!log || log.value.status !== "retrying") continue;
      const next: SendLog = {
        ...log.value,
        status: "failed",
        error: `discarded by ${audit.actor.login} while the target was paused` +
          (log.value.error ? ` (${log.value.error})` : ""),
        updatedAt: now,
      };
      const { nextAttemptAt: _due, ...rest } = next;
      op.check(log);
      putSendLog(op, rest, log.value, retentionMs);
      countOutcome(op, rest, now);
      discarded++;
    }
    if (!audited) {
      addAuditEntry(
        op,
        { ...audit, detail: { ...audit.detail, held: held.length } },
        new Map([[audit.groupId ?? "", internalId]]),
      );
      audited = true;
    }
    if (discarded > 0) {
      op.sum(
        targetHealthCounterKey(chunk[0] ? platformOfKey(targetKey) : "unknown", "discarded"),
        BigInt(discarded),
      );
    }
    if (!(await op.commit()).ok) {
      throw new Error(`Cannot discard the held units of ${targetKey}: they changed meanwhile`);
    }
    count += discarded;
  }
  return { count };
}

function platformOfKey(targetKey: string): string {
  return targetKey.slice(0, targetKey.indexOf(":"));
}

/** The target health counters: platform → change → count. */
export async function readHealthCounts(kv: Kv): Promise<Map<string, Map<string, number>>> {
  const counts = new Map<string, Map<string, number>>();
  for await (const entry of kv.list<KvU64>({ prefix: targetHealthCountersPrefix() })) {
    const [, platform, change] = entry.key as string[];
    let byChange = counts.get(platform);
    if (!byChange) counts.set(platform, byChange = new Map());
    byChange.set(change, Number(entry.value.value));
  }
  return counts;
}
