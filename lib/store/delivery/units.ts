/**
 * Delivery units: one per (event, route, target). A unit is its send log
 * record, the rendered body it sends (kept until it succeeds, for
 * redelivery) and, while not final, an entry in its target's lane. Every
 * change of a unit is one atomic operation checked against the send log's
 * versionstamp, so a unit is created once, a successful unit is never sent
 * again, and its indexes and counters always agree with it.
 */
import type { AtomicOperation, Kv, KvEntry, KvEntryMaybe } from "../backend/types.ts";
import { addAuditEntry, type AuditEntry } from "../telemetry/audit.ts";
import { MAX_CHECKS_PER_COMMIT } from "../commit_limits.ts";
import {
  appendToLane,
  getLaneRun,
  joinLane,
  type LaneEntry,
  type LaneRun,
  reattachUnit,
} from "./lanes.ts";
import {
  allowedTargetsKey,
  groupsPointerKey,
  laneEntryKey,
  laneRunKey,
  sendLogByStatusPrefix,
  sendLogKey,
  unitBodyKey,
} from "../keys.ts";
import { addMessageRef, type NewMessageRef } from "./message_refs.ts";
import { countOutcome, withdrawOutcome } from "../telemetry/metrics.ts";
import {
  DEFAULT_RETENTION_DAYS,
  getSendLogEntry,
  historyIdOf,
  listDeliveryLogs,
  putSendLog,
  retentionMs,
  type SendLog,
} from "./send_logs.ts";
import { laneKeyFor } from "../../target_ref.ts";
import { addHealthWrite, type HealthWrite, isHeld } from "./target_health.ts";

const COMMIT_ATTEMPTS = 20;

/** A unit to create: its first send log record, its rendered body and its lane. */
export interface NewUnit {
  log: SendLog;
  body: unknown;
  lane: string;
}

/**
 * Creates a unit unless one with the same id exists: the send log (status
 * `retrying`, no attempts), its body and its lane entry, waking the lane if it
 * is idle. True when created, false when it already existed.
 */
export async function createUnit(
  kv: Kv,
  unit: NewUnit,
  now: number,
  retentionMs: number,
): Promise<boolean> {
  for (let attempt = 0; attempt < COMMIT_ATTEMPTS; attempt++) {
    const run = await getLaneRun(kv, unit.lane);
    const op = kv.atomic().check({ key: sendLogKey(unit.log.id), versionstamp: null });
    putSendLog(op, unit.log, null, retentionMs);
    op.set(unitBodyKey(unit.log.id), unit.body, { expireIn: retentionMs });
    appendToLane(op, unit.lane, { logId: unit.log.id, failures: 0 }, run, now);
    if ((await op.commit()).ok) return true;
    if ((await kv.get(sendLogKey(unit.log.id))).versionstamp !== null) return false;
  }
  throw new Error(`Cannot create delivery unit ${unit.log.id}: its lane kept changing`);
}

/** Most units one commit creates (each adds about ten writes). */
const UNITS_PER_COMMIT = 40;

/** The checks a unit adds to a commit: "none exists", and its lane's run record once per lane. */
function checksOf(unit: NewUnit, lanes: Set<string>): number {
  return lanes.has(unit.lane) ? 1 : 2;
}

/**
 * The units in chunks of at most {@link UNITS_PER_COMMIT} units and
 * {@link MAX_CHECKS_PER_COMMIT} checks, in order.
 */
function commitChunks(units: readonly NewUnit[]): NewUnit[][] {
  const chunks: NewUnit[][] = [];
  let chunk: NewUnit[] = [];
  let lanes = new Set<string>();
  let checks = 0;
  for (const unit of units) {
    const full = chunk.length >= UNITS_PER_COMMIT ||
      checks + checksOf(unit, lanes) > MAX_CHECKS_PER_COMMIT;
    if (full) {
      chunks.push(chunk);
      chunk = [];
      lanes = new Set();
      checks = 0;
    }
    checks += checksOf(unit, lanes);
    lanes.add(unit.lane);
    chunk.push(unit);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** Most keys one `getMany` reads. */
const GET_MANY_KEYS = 10;

/**
 * Creates an event's units in as few commits as possible: each chunk of units
 * is one atomic write checked "none exists" and against each lane's run record
 * (a lane woken once per chunk). If that commit fails (a unit exists already,
 * a lane changed), the chunk's units are created one by one. Returns how many
 * were new.
 */
export async function createUnitsTogether(
  kv: Kv,
  units: readonly NewUnit[],
  now: number,
  retentionMs: number,
): Promise<number> {
  let created = 0;
  const distinct = [...new Map(units.map((unit) => [unit.log.id, unit])).values()];
  for (const chunk of commitChunks(distinct)) {
    if (await createTogether(kv, chunk, now, retentionMs)) {
      created += chunk.length;
      continue;
    }
    for (const unit of chunk) {
      if (await createUnit(kv, unit, now, retentionMs)) created++;
    }
  }
  return created;
}

async function createTogether(
  kv: Kv,
  units: readonly NewUnit[],
  now: number,
  retentionMs: number,
): Promise<boolean> {
  const lanes = [...new Set(units.map((unit) => unit.lane))];
  const runs = new Map<string, KvEntryMaybe<LaneRun>>();
  for (let start = 0; start < lanes.length; start += GET_MANY_KEYS) {
    const some = lanes.slice(start, start + GET_MANY_KEYS);
    const read = await kv.getMany<LaneRun[]>(some.map((lane) => laneRunKey(lane)));
    some.forEach((lane, index) => runs.set(lane, read[index]));
  }
  const op = kv.atomic();
  const joined = new Set<string>();
  for (const unit of units) {
    op.check({ key: sendLogKey(unit.log.id), versionstamp: null });
    putSendLog(op, unit.log, null, retentionMs);
    op.set(unitBodyKey(unit.log.id), unit.body, { expireIn: retentionMs });
    const entry = { logId: unit.log.id, failures: 0 };
    if (joined.has(unit.lane)) {
      joinLane(op, unit.lane, entry);
    } else {
      appendToLane(op, unit.lane, entry, runs.get(unit.lane)!, now);
      joined.add(unit.lane);
    }
  }
  return (await op.commit()).ok;
}

/** A unit as read: its send log entry (null when gone) and rendered body (null when gone). */
export interface StoredUnit {
  log: KvEntry<SendLog> | null;
  body: unknown;
}

/** A unit's send log and rendered body, in one read. */
export async function getUnit(kv: Kv, logId: string): Promise<StoredUnit> {
  return (await getUnits(kv, [logId]))[0];
}

/** Several units' send logs and rendered bodies, in `logIds` order, five units per read. */
export async function getUnits(kv: Kv, logIds: readonly string[]): Promise<StoredUnit[]> {
  const units: StoredUnit[] = [];
  const perRead = GET_MANY_KEYS / 2;
  for (let start = 0; start < logIds.length; start += perRead) {
    const some = logIds.slice(start, start + perRead);
    const read = await kv.getMany(some.flatMap((id) => [sendLogKey(id), unitBodyKey(id)]));
    some.forEach((_, index) => {
      const log = read[2 * index] as KvEntryMaybe<SendLog>;
      units.push({
        log: log.versionstamp === null ? null : log as KvEntry<SendLog>,
        body: read[2 * index + 1].value,
      });
    });
  }
  return units;
}

/**
 * The version of a group's allowlist that a send-time target check read, and of the group set
 * it found the group in: a unit is marked as sending only while both are still those versions,
 * so a target removed (or a group deleted, or created again with the id) meanwhile is never sent
 * to on a verdict made before that change.
 */
export interface TargetBasis {
  groupId: string;
  /** The allowlist record's versionstamp when the check read it. */
  versionstamp: string;
  /** The group set's version (`["groups_pointer"]`) when the check read it. */
  groupsVersion: string | null;
}

/** A unit about to be sent: the lane's run record and the unit as read, and its target check. */
export interface UnitToMark {
  run: KvEntry<LaneRun>;
  log: KvEntry<SendLog>;
  basis: TargetBasis;
}

/** Adds to `op` the mark of an attempt (checked as {@link markSending} says); the marked log. */
function addMark(
  op: AtomicOperation,
  { run, log, basis }: UnitToMark,
  now: number,
  retentionMs: number,
): SendLog {
  const { nextAttemptAt: _due, ...rest } = log.value;
  const next: SendLog = { ...rest, attempts: log.value.attempts + 1, updatedAt: now };
  // The status is unchanged, so the index entries stay as they are: only the record is written.
  op.check(run).check(log)
    .check({ key: allowedTargetsKey(basis.groupId), versionstamp: basis.versionstamp })
    .check({ key: groupsPointerKey(), versionstamp: basis.groupsVersion })
    .set(sendLogKey(next.id), next, { expireIn: retentionMs });
  return next;
}

/**
 * Counts an attempt before the platform call, if the runner still holds the
 * lane (`run` unchanged), the unit is unchanged and the group's allowlist is
 * still the one its target check read. Returns the updated log entry, or null
 * when any of them changed.
 */
export async function markSending(
  kv: Kv,
  unit: UnitToMark,
  now: number,
  retentionMs: number,
): Promise<KvEntry<SendLog> | null> {
  const op = kv.atomic();
  const next = addMark(op, unit, now, retentionMs);
  const result = await op.commit();
  return result.ok ? { ...unit.log, value: next, versionstamp: result.versionstamp } : null;
}

/** What else the commit of an outcome writes. */
interface OutcomeExtras {
  /** What the sent notification is about (chat-ops buttons and replies read it). */
  messageRef?: NewMessageRef;
  /** The target's health after the attempt, when it changed. */
  health?: HealthWrite;
  /** The lane's next unit, marked as sending in the same commit when nothing changed. */
  markNext?: UnitToMark;
}

/**
 * The commits an outcome is tried with, in order: with all its extras; then, when it has
 * `markNext`, without the mark; then, when it has `health`, without the health write too.
 */
function attemptsOf(extras: OutcomeExtras): OutcomeExtras[] {
  const { messageRef, health } = extras;
  const attempts = [extras];
  if (extras.markNext) attempts.push({ messageRef, health });
  if (health) attempts.push({ messageRef });
  return attempts;
}

/**
 * Records the outcome of an attempt: the new send log, its counters, and the
 * lane entry (kept with its failure and 429 counts while `retrying`, removed
 * when final); the body is removed once the unit is `ok`; the message
 * reference and the target's new health, if any, are written with them, so a
 * crash never leaves the outcome and the health disagreeing. Throws if the
 * unit changed since it was marked as sending. With `markNext`, the same commit
 * also marks the next unit as sending ({@link markSending}) and returns its
 * updated entry; if that part cannot commit (the lane, the unit or the
 * allowlist changed), the outcome is recorded without it and null is returned.
 * A health record changed since it was read (a person resumed the target) is
 * left as it is: the outcome is then recorded alone. Each commit that fails is
 * tried again without the next of these extras ({@link attemptsOf}).
 */
export async function recordOutcome(
  kv: Kv,
  lane: string,
  log: KvEntry<SendLog>,
  next: SendLog,
  entry: LaneEntry,
  now: number,
  retentionMs: number,
  extras: OutcomeExtras = {},
): Promise<KvEntry<SendLog> | null> {
  for (const attempt of attemptsOf(extras)) {
    const op = kv.atomic().check(log);
    putSendLog(op, next, log.value, retentionMs);
    countOutcome(op, next, now);
    if (next.status === "retrying") {
      op.set(laneEntryKey(lane, next.id), { ...entry, logId: next.id } satisfies LaneEntry);
    } else {
      op.delete(laneEntryKey(lane, next.id));
    }
    if (next.status === "ok") op.delete(unitBodyKey(next.id));
    if (attempt.messageRef) {
      addMessageRef(op, attempt.messageRef.place, attempt.messageRef.subject, now);
    }
    if (attempt.health) addHealthWrite(op, attempt.health);
    const marked = attempt.markNext && addMark(op, attempt.markNext, now, retentionMs);
    // With the next unit's mark, a failed or refused commit is tried again without it.
    const result = marked ? await op.commit().catch(() => null) : await op.commit();
    if (result?.ok) {
      return marked
        ? { ...attempt.markNext!.log, value: marked, versionstamp: result.versionstamp }
        : null;
    }
  }
  throw new Error(`Delivery unit ${next.id} changed while sending`);
}

/**
 * Says why a unit still waits in its lane without an attempt (its platform is not configured):
 * the send log gets `next` (still `retrying`, nothing counted). False when the unit changed.
 */
export async function noteWaiting(
  kv: Kv,
  log: KvEntry<SendLog>,
  next: SendLog,
  retentionMs: number,
): Promise<boolean> {
  const op = kv.atomic().check(log);
  putSendLog(op, next, log.value, retentionMs);
  return (await op.commit()).ok;
}

/** What {@link redeliver} did. */
interface RedeliverResult {
  /** Units put back in their lanes. */
  requeued: string[];
  /** Failed or dead units whose body has expired, so they cannot be sent again. */
  expired: string[];
}

/** The audit entry of one unit's redelivery, made from the unit's send log. */
type RedeliverAudit = (log: SendLog) => AuditEntry;

/** A failed or dead unit to put back in its lane: its log as read and its body. */
export interface UnitToRequeue {
  log: KvEntry<SendLog>;
  body: unknown;
}

/**
 * Adds to `op` what puts a failed or dead unit back in its lane `lane` with a fresh retry
 * schedule, checked against its log as read: the log as `retrying`, its outcome taken out of
 * the counters, its body kept for another `retentionMs` and its lane entry. `run` is the lane's
 * run record as read, which the entry wakes when the lane is idle; null when `op` already
 * woke the lane for another unit, which this one then joins.
 */
export function addRequeue(
  op: AtomicOperation,
  { log, body }: UnitToRequeue,
  lane: string,
  run: KvEntryMaybe<LaneRun> | null,
  now: number,
  retentionMs: number,
): void {
  const next: SendLog = { ...log.value, status: "retrying", updatedAt: now };
  op.check(log);
  putSendLog(op, next, log.value, retentionMs);
  withdrawOutcome(op, log.value);
  op.set(unitBodyKey(log.value.id), body, { expireIn: retentionMs });
  const entry = { logId: log.value.id, failures: 0 };
  if (run === null) joinLane(op, lane, entry);
  else appendToLane(op, lane, entry, run, now);
}

async function requeueUnit(
  kv: Kv,
  logId: string,
  now: number,
  retentionMs: number,
  audit: RedeliverAudit | undefined,
): Promise<"requeued" | "expired" | "skipped"> {
  for (let attempt = 0; attempt < COMMIT_ATTEMPTS; attempt++) {
    const log = await getSendLogEntry(kv, logId);
    if (!log || (log.value.status !== "failed" && log.value.status !== "dead")) return "skipped";
    const body = await kv.get(unitBodyKey(logId));
    if (body.versionstamp === null) return "expired";
    const lane = laneKeyFor(log.value.target);
    const run = await kv.get<LaneRun>(laneRunKey(lane));
    const op = kv.atomic();
    addRequeue(op, { log, body: body.value }, lane, run, now, retentionMs);
    op.check(body);
    if (audit) addAuditEntry(op, ...auditOfUnit(audit, log.value));
    if ((await op.commit()).ok) return "requeued";
  }
  throw new Error(`Cannot redeliver unit ${logId}: it kept changing`);
}

/** The entry `audit` makes for a unit, indexed under the unit's group (by its internal id). */
function auditOfUnit(
  audit: RedeliverAudit,
  log: SendLog,
): [AuditEntry, ReadonlyMap<string, string>] {
  const entry = audit(log);
  const internalIds = new Map<string, string>();
  if (entry.groupId !== undefined) internalIds.set(entry.groupId, historyIdOf(log));
  return [entry, internalIds];
}

/**
 * Puts every `failed` or `dead` unit of a delivery back in its lane with a
 * fresh retry schedule; units that succeeded (or are still in progress) are
 * left alone. `retentionDays` is SEND_LOG_RETENTION_DAYS (default 30). With
 * `audit`, each unit put back gets its entry in the same atomic write.
 */
export async function redeliver(
  kv: Kv,
  deliveryId: string,
  options: { retentionDays?: number; now?: number; audit?: RedeliverAudit } = {},
): Promise<RedeliverResult> {
  const now = options.now ?? Date.now();
  const retention = retentionMs(options.retentionDays ?? DEFAULT_RETENTION_DAYS);
  const result: RedeliverResult = { requeued: [], expired: [] };
  for (const log of await listDeliveryLogs(kv, deliveryId)) {
    const outcome = await requeueUnit(kv, log.id, now, retention, options.audit);
    if (outcome === "requeued") result.requeued.push(log.id);
    if (outcome === "expired") result.expired.push(log.id);
  }
  return result;
}

/** Most `retrying` units one sweep looks at, oldest first. */
const STRANDED_SCAN_LIMIT = 500;

/**
 * Finds `retrying` units past their next attempt by more than `stallMs` whose
 * lane lost them (no lane entry) or went idle over them, and puts them back:
 * the entry is restored and the lane woken. A unit held for its paused target
 * (`target_health.ts`) is out of its lane on purpose and is left alone: a
 * resume or a discard ends its hold, or the sweep once its group is deleted
 * (`held_leftovers.ts`). Returns how many were put back.
 */
export async function reattachStrandedUnits(
  kv: Kv,
  now: number,
  stallMs: number,
): Promise<number> {
  let reattached = 0;
  const index = kv.list<string>({ prefix: sendLogByStatusPrefix("retrying") }, {
    limit: STRANDED_SCAN_LIMIT,
  });
  for await (const item of index) {
    const logId = String(item.key.at(-1));
    const log = await getSendLogEntry(kv, logId);
    if (!log || log.value.status !== "retrying") continue;
    const dueAt = log.value.nextAttemptAt ?? log.value.updatedAt;
    if (dueAt > now - stallMs) continue;
    if (await isHeld(kv, log.value)) continue;
    const lane = laneKeyFor(log.value.target);
    if (await reattachUnit(kv, lane, logId, log.versionstamp, log.key, now)) reattached++;
  }
  return reattached;
}
