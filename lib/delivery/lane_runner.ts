/**
 * One step of a lane: looks at the lane's head unit and sends it if the
 * target's rate limit allows within a short sleep, or says how long the lane
 * must wait (a rate limit, a retry backoff, an older event still being fanned
 * out). The lane scheduler (lane_scheduler.ts) holds the lane and runs steps.
 * Before each attempt the target guard checks that the unit's group may still
 * post there; a unit it refuses ends `dead` unsent. A head entry that closes a digest
 * (`digest_close.ts`) is worked in its turn like a unit.
 *
 * One commit per message when the lane flows: while a unit's call is in flight
 * the next unit is read, and if it may go at once (order gate clear, target
 * allowed, the limiter grants it within one longest sleep) the commit that
 * records this unit's outcome also marks the next one as sending. Each outcome
 * is still recorded right after its own call; only the next unit's mark (the
 * lease check before its call) rides along.
 */
import type { KvEntry } from "../store/backend/types.ts";
import { type LanePace, paceEnd } from "../platform/lane_pace.ts";
import {
  dropLaneEntry,
  finishLane,
  getLaneRun,
  type LaneEntry,
  type LaneRun,
  readLaneEntries,
  type StoredPace,
} from "../store/delivery/lanes.ts";
import type { SendLog } from "../store/delivery/send_logs.ts";
import {
  getUnit,
  getUnits,
  markSending,
  noteWaiting,
  recordOutcome,
  type StoredUnit,
  type UnitToMark,
} from "../store/delivery/units.ts";
import type { Target } from "../types.ts";
import type { PlatformAdapter } from "../platform/adapter.ts";
import { sentMessageRef } from "./tracking.ts";
import { chatCalls } from "./chat_calls.ts";
import { digestClosedBy, stepDigestClose } from "./digest_close.ts";
import { sentRunMessageRef } from "./run_tracking.ts";
import { noteEdit, sendOrEdit } from "./edit_in_place.ts";
import type { DeliveryContext } from "./context.ts";
import { mustWaitForOlderEvents, ORDER_POLL_MS } from "./order_gate.ts";
import { unitOwner } from "./target_guard.ts";
import { decide, type RetryDecision } from "./retry_policy.ts";
import type { SendResult } from "../platform/send_result.ts";
import { retryTransient } from "../store/transient.ts";
import { type HealthSeen, holdIfPaused, knownClear, noteAnswer } from "./target_health.ts";

/** A lane as its current holder sees it. */
export interface HeldLane {
  lane: string;
  run: KvEntry<LaneRun>;
  /** The lane's target, once a unit was seen (its limiter state is handed on with the lane). */
  target?: Target;
  /** The pace the previous owner left, taken on at the first unit. */
  inherited: LanePace | null;
  /** The lane's next entries as last read, in order (read again once used up). */
  ahead: KvEntry<LaneEntry>[];
  /** When `ahead` was read. */
  aheadReadAt: number;
  /** Units of `ahead` already read (a few at a time, while the unit before them was sent). */
  readUnits?: Map<string, StoredUnit>;
  /** The last entries read were all used up without a wait: the next read takes more. */
  flowing?: boolean;
  /** Units of events up to this one may go: no older fan-out was pending at `clearedAt`. */
  clearedThrough?: string;
  clearedAt?: number;
  /** The head unit when the previous outcome's commit already marked it as sending. */
  marked?: MarkedUnit;
  /** Told each entry that is no unit (a digest's close) once it was worked. */
  worked?: (entryId: string) => void;
  /** The health of the lane's targets as read (`target_health.ts`). */
  health?: HealthSeen;
}

/** A unit marked as sending, ready for its call. */
interface MarkedUnit {
  /** Its send log as marked. */
  log: KvEntry<SendLog>;
  body: unknown;
  adapter: PlatformAdapter;
  /** When its call may leave (its reservation). */
  sendAt: number;
}

/** How many units of the lane one read ahead takes. */
const UNITS_PER_READ = 5;

/** How many lane entries one read takes. */
const READ_AHEAD = 32;

/** How many once a lane flows (its last entries were all used up without a wait). */
const READ_AHEAD_FLOWING = 128;

/** How long a clear look at the order gate is trusted. */
const GATE_TRUST_MS = 500;

/** The event id of a unit id (`<event ulid>-<hash>`). */
function eventOf(logId: string): string {
  return logId.slice(0, logId.lastIndexOf("-"));
}

/** What one step of a lane came to. */
export type Step =
  | { kind: "next" }
  | { kind: "wait"; delayMs: number; forOlderEvents?: true }
  | { kind: "idle" }
  | { kind: "lost" }
  /** The lane's platform is not configured: park the lane until a process starts with it. */
  | { kind: "park" };

function outcomeLog(
  log: SendLog,
  result: SendResult,
  decision: RetryDecision,
  now: number,
): SendLog {
  const { httpStatus: _status, error: _error, messageId: _id, nextAttemptAt: _due, ...rest } = log;
  const next: SendLog = { ...rest, status: decision.status, updatedAt: now };
  if (result.httpStatus !== undefined) next.httpStatus = result.httpStatus;
  if (result.kind === "sent") {
    if (result.messageId !== undefined) next.messageId = result.messageId;
    if (result.digestId !== undefined) next.digestId = result.digestId;
  } else {
    next.error = decision.reason === undefined
      ? result.error
      : `${decision.reason}: ${result.error}`;
  }
  if (decision.delayMs !== undefined) next.nextAttemptAt = now + decision.delayMs;
  return noteEdit(next, result); // edit in place: records `edited` / `editedMessageId`
}

/** The rate-limit state of the lane's target, to leave for its next owner. */
export function paceOfLane(ctx: DeliveryContext, held: HeldLane): StoredPace | null {
  if (!held.target) return null;
  const pace = ctx.adapters.get(held.target.platform)?.paceOf(held.target);
  return pace ? { value: pace, until: paceEnd(pace) } : null;
}

async function stillOwned(ctx: DeliveryContext, held: HeldLane): Promise<Step> {
  const current = await getLaneRun(ctx.kv, held.lane);
  if (
    current.value?.token !== held.run.value.token ||
    current.value.leaseOwner !== held.run.value.leaseOwner
  ) {
    return { kind: "lost" };
  }
  held.run = current as KvEntry<LaneRun>;
  return { kind: "next" };
}

async function endWithoutSending(
  ctx: DeliveryContext,
  lane: string,
  log: KvEntry<SendLog>,
  entry: LaneEntry,
  error: string,
  status: "failed" | "dead" = "failed",
) {
  const now = ctx.now();
  const next: SendLog = { ...log.value, status, error, updatedAt: now };
  await recordOutcome(ctx.kv, lane, log, next, entry, now, ctx.retentionMs);
  ctx.log.warn(`delivery unit ${status}`, { eventId: next.eventId, logId: next.id, error });
}

/**
 * A unit whose platform is not configured stays in its lane, `retrying` with no attempt, its
 * log saying what to set; the lane is parked until a process starts with the setting.
 */
async function waitForConfiguration(
  ctx: DeliveryContext,
  log: KvEntry<SendLog>,
  why: string,
): Promise<Step> {
  if (log.value.error !== why) {
    const { nextAttemptAt: _due, ...rest } = log.value;
    await noteWaiting(ctx.kv, log, { ...rest, error: why, updatedAt: ctx.now() }, ctx.retentionMs);
    ctx.log.warn("delivery waits for its platform", { logId: log.value.id, error: why });
  }
  return { kind: "park" };
}

/** Records what an attempt came to (retrying busy-store errors) and tells the lane what next. */
async function settle(
  ctx: DeliveryContext,
  held: HeldLane,
  log: KvEntry<SendLog>,
  entry: LaneEntry,
  result: SendResult,
  upcoming: Promise<StoredUnit | null> | null = null,
): Promise<Step> {
  const now = ctx.now();
  const decision = decide(result, entry, ctx.backoffMs, now, ctx.rateLimitBound);
  const next = outcomeLog(log.value, result, decision, now);
  const seen = held.health ??= new Map();
  // An answer that pauses the target holds the unit instead of recording its outcome; any
  // other change of the target's health is written in the outcome's commit.
  const health = await noteAnswer(ctx, seen, held.lane, log, next, result);
  if (health === "held") return { kind: "next" };
  const kept: LaneEntry = { logId: entry.logId, failures: decision.failures };
  if (decision.rateLimits !== undefined) {
    kept.rateLimits = decision.rateLimits;
    kept.rateLimitedSince = decision.rateLimitedSince;
  }
  // Buttons and replies find the message once the outcome is logged: it is written with it.
  const adapter = ctx.adapters.get(next.platform);
  const messageRef = adapter && (
        await sentMessageRef(ctx.kv, next, adapter, ctx.log) ??
          await sentRunMessageRef(ctx.kv, next, adapter, ctx.log)
      ) || undefined;
  // Nothing about the next unit may keep this outcome from being recorded.
  const ready = next.status !== "retrying" && upcoming
    ? await readyToGo(ctx, held, await upcoming).catch(() => null)
    : null;
  const marked = await retryTransient(
    ctx.log,
    "record a delivery outcome",
    () =>
      recordOutcome(ctx.kv, held.lane, log, next, kept, now, ctx.retentionMs, {
        messageRef,
        markNext: ready?.unit,
        health: health ?? undefined,
      }),
  );
  if (ready && marked) {
    held.marked = { log: marked, body: ready.body, adapter: ready.adapter, sendAt: ready.sendAt };
  } else if (ready) {
    ctx.targets.forget(ready.unit.basis.groupId); // the list it was judged on may have changed
  }
  ctx.log.info(next.status === "ok" ? "delivery sent" : "delivery attempt", {
    eventId: next.eventId,
    logId: next.id,
    platform: next.platform,
    status: next.status,
    httpStatus: next.httpStatus,
    error: next.error,
    retryInMs: decision.delayMs,
  });
  return decision.delayMs === undefined
    ? { kind: "next" }
    : { kind: "wait", delayMs: decision.delayMs };
}

/**
 * The unit read ahead, if it may go as soon as the unit before it is recorded:
 * still waiting, its body kept, its platform configured, the order gate clear
 * without a look, its target allowed, and the limiter granting it within one
 * longest sleep (the reservation is made). Null otherwise: the lane's next step
 * then takes it the ordinary way.
 */
async function readyToGo(
  ctx: DeliveryContext,
  held: HeldLane,
  read: StoredUnit | null,
): Promise<{ unit: UnitToMark; body: unknown; adapter: PlatformAdapter; sendAt: number } | null> {
  const log = read?.log;
  if (!log || log.value.status !== "retrying" || read.body === null) return null;
  if (log.value.id !== held.ahead[1]?.value.logId) return null;
  const adapter = ctx.adapters.get(log.value.platform);
  if (!adapter || adapter.unavailable() !== null) return null;
  if (!knownClear(held.health ?? new Map(), log.value)) return null;
  if (!gateClear(ctx, held, log.value.eventId)) return null;
  const verdict = await ctx.targets.check(unitOwner(log.value));
  if (verdict.kind !== "allowed") return null;
  const reservation = adapter.reserve(log.value.target, ctx.maxSleepMs);
  if (!reservation.granted) return null;
  return {
    unit: { run: held.run, log, basis: verdict.basis },
    body: read.body,
    adapter,
    sendAt: ctx.now() + reservation.waitMs,
  };
}

/**
 * The unit after the head, from the units already read or read now with the
 * few after it; null when there is none or the read failed (each unit is then
 * read again in its own step).
 */
async function readNext(ctx: DeliveryContext, held: HeldLane): Promise<StoredUnit | null> {
  const logId = held.ahead[1]?.value.logId;
  if (logId === undefined) return null;
  const known = held.readUnits?.get(logId);
  if (known) return known;
  const ids = held.ahead.slice(1, 1 + UNITS_PER_READ).map((entry) => entry.value.logId);
  try {
    const units = await getUnits(ctx.kv, ids);
    held.readUnits = new Map(ids.map((id, index) => [id, units[index]]));
    return units[0];
  } catch {
    return null;
  }
}

/** True when an earlier clear look at the order gate covers a unit of `eventId` (see below). */
function gateClear(ctx: DeliveryContext, held: HeldLane, eventId: string): boolean {
  return held.clearedThrough !== undefined && eventId <= held.clearedThrough &&
    (held.clearedAt ?? Infinity) <= held.aheadReadAt &&
    ctx.now() - held.clearedAt! < GATE_TRUST_MS;
}

/**
 * Whether the unit of `eventId` may go as far as per-target order is
 * concerned: "go" when an earlier look found no older fan-out pending and the
 * entries were read after that look (then every unit of an event up to the
 * cleared one was in the lane when it was read, in order); "look again" after
 * a clear look (the lane must be read again); "wait" while an older event's
 * fan-out is pending. One look covers every unit read ahead, so a run of units
 * costs one look and one read.
 */
async function orderGate(
  ctx: DeliveryContext,
  held: HeldLane,
  eventId: string,
): Promise<"go" | "look again" | "wait"> {
  if (gateClear(ctx, held, eventId)) return "go";
  const now = ctx.now();
  const newest = eventOf(held.ahead.at(-1)!.value.logId);
  for (const candidate of newest > eventId ? [newest, eventId] : [eventId]) {
    if (!await mustWaitForOlderEvents(ctx, candidate)) {
      held.clearedThrough = candidate;
      held.clearedAt = now;
      return "look again";
    }
  }
  return "wait";
}

/** Looks at the lane's head unit and sends it, ends it, or says how long to wait. */
export async function step(ctx: DeliveryContext, held: HeldLane): Promise<Step> {
  const outcome = await stepHead(ctx, held);
  // A unit that stays in the lane has a new entry (its counts): read the lane again.
  if (outcome.kind === "next") {
    const done = held.ahead.shift()!;
    held.readUnits?.delete(done.value.logId);
    if (held.ahead.length === 0) held.flowing = true;
  } else {
    held.ahead = [];
    held.readUnits = undefined;
    if (outcome.kind !== "wait" || outcome.delayMs > 0) held.flowing = false;
  }
  return outcome;
}

async function stepHead(ctx: DeliveryContext, held: HeldLane): Promise<Step> {
  const { lane } = held;
  if (held.ahead.length === 0) {
    held.aheadReadAt = ctx.now();
    const limit = held.flowing ? READ_AHEAD_FLOWING : READ_AHEAD;
    const { entries, tailStamp } = await readLaneEntries(ctx.kv, lane, limit);
    if (entries.length === 0) {
      const now = ctx.now();
      if (await finishLane(ctx.kv, lane, held.run, tailStamp, paceOfLane(ctx, held), now)) {
        return { kind: "idle" };
      }
      const owned = await stillOwned(ctx, held);
      return owned.kind === "next" ? { kind: "wait", delayMs: 0 } : owned;
    }
    held.ahead = entries;
  }
  const head = held.ahead[0];
  const marked = held.marked;
  held.marked = undefined;
  if (marked?.log.value.id === head.value.logId) return await sendMarked(ctx, held, head, marked);
  const closing = digestClosedBy(head.value.logId);
  if (closing !== null) return await stepDigestClose(ctx, held, head, closing);
  const { log, body } = await getUnit(ctx.kv, head.value.logId);
  if (!log || log.value.status !== "retrying") {
    await dropLaneEntry(ctx.kv, head);
    return { kind: "next" };
  }
  const adapter = ctx.adapters.get(log.value.platform);
  if (!adapter) {
    await endWithoutSending(ctx, lane, log, head.value, `unknown platform "${log.value.platform}"`);
    return { kind: "next" };
  }
  if (!held.target) {
    held.target = log.value.target;
    if (held.inherited) adapter.adopt(held.target, held.inherited);
  }
  const unconfigured = adapter.unavailable();
  if (unconfigured !== null) return await waitForConfiguration(ctx, log, unconfigured);
  const blocked = body === null ? "the rendered message has expired" : null;
  if (blocked) {
    await endWithoutSending(ctx, lane, log, head.value, blocked);
    return { kind: "next" };
  }
  const hold = await holdIfPaused(ctx, held.health ??= new Map(), lane, log);
  if (hold === "held") return { kind: "next" };
  if (hold !== "send") return { kind: "wait", delayMs: hold.waitMs };
  const order = await orderGate(ctx, held, log.value.eventId);
  if (order === "look again") return { kind: "wait", delayMs: 0 };
  if (order === "wait") return { kind: "wait", delayMs: ORDER_POLL_MS, forOlderEvents: true };
  const verdict = await ctx.targets.check(unitOwner(log.value));
  if (verdict.kind === "refused") {
    await endWithoutSending(ctx, lane, log, head.value, verdict.error, "dead");
    return { kind: "next" };
  }
  if (verdict.kind === "unsure") {
    return await settle(ctx, held, log, head.value, verdict.result);
  }
  // Not yet: come back one longest sleep early, so that reading and marking the unit happen
  // inside that sleep and the call still leaves at its reserved time.
  const reservation = adapter.reserve(log.value.target, ctx.maxSleepMs);
  if (!reservation.granted) {
    return { kind: "wait", delayMs: Math.max(0, reservation.waitMs - ctx.maxSleepMs) };
  }
  const sendAt = ctx.now() + reservation.waitMs;
  const unit = { run: held.run, log, basis: verdict.basis };
  const sending = await markSending(ctx.kv, unit, ctx.now(), ctx.retentionMs);
  if (!sending) {
    ctx.targets.forget(log.value.groupId); // the list it was judged on may have changed
    const owned = await stillOwned(ctx, held);
    return owned.kind === "next" ? { kind: "wait", delayMs: 0 } : owned;
  }
  return await sendMarked(ctx, held, head, { log: sending, body, adapter, sendAt });
}

/** Makes the call of a unit marked as sending (at its reserved time) and records its outcome. */
async function sendMarked(
  ctx: DeliveryContext,
  held: HeldLane,
  head: KvEntry<LaneEntry>,
  unit: MarkedUnit,
): Promise<Step> {
  // The next unit is read while this one is on its way, for its mark to ride on this outcome.
  const upcoming = held.ahead.length > 1 ? readNext(ctx, held) : null;
  const left = unit.sendAt - ctx.now();
  if (left > 0) await ctx.sleep(left);
  // The lane reserved the unit's first call; any further one reserves its own.
  const calls = chatCalls(ctx, unit.adapter, true);
  const result = await sendOrEdit(ctx, calls, unit.log.value, unit.body);
  return await settle(ctx, held, unit.log, head.value, result, upcoming);
}
