/**
 * The `lane` job: works through one target's lane in order. Only the queue
 * message carrying the lane's current token may work, under a lease; it sends
 * units one after another while the rate limits allow within a short sleep,
 * and otherwise (a long rate-limit wait, a retry backoff, an older event still
 * being fanned out, its time budget spent) passes the lane to a new message
 * delayed as needed, so no handler ever sleeps long and one target never holds
 * up another. Before each attempt the target guard checks that the unit's
 * group may still post there; a unit it refuses ends `dead` unsent.
 */
import {
  dropLaneEntry,
  finishLane,
  getLaneRun,
  handOffLane,
  type LaneEntry,
  type LaneMessage,
  type LaneRun,
  readLaneHead,
  requeueLaneMessage,
  takeLease,
} from "../store/lanes.ts";
import { getSendLogEntry, type SendLog } from "../store/send_logs.ts";
import { getUnitBody, markSending, recordOutcome } from "../store/units.ts";
import { trackSentMessage } from "../chatops/tracking.ts";
import { noteEdit, sendOrEdit } from "./edit_in_place.ts";
import type { DeliveryContext } from "./context.ts";
import { mustWaitForOlderEvents, ORDER_POLL_MS } from "./order_gate.ts";
import { decide, type RetryDecision } from "./retry_policy.ts";
import type { SendResult } from "../platform/send_result.ts";
import type { PlatformSender } from "./senders.ts";

/** What one step of a lane came to. */
type Step =
  | { kind: "next"; run: Deno.KvEntry<LaneRun> }
  | { kind: "wait"; delayMs: number }
  | { kind: "idle" }
  | { kind: "lost" };

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
    if (result.digestId !== undefined) next.digestId = result.digestId; // noise control hook
  } else {
    next.error = result.error;
  }
  if (decision.delayMs !== undefined) next.nextAttemptAt = now + decision.delayMs;
  return noteEdit(next, result); // edit in place: records `edited` / `editedMessageId`
}

async function stillOwned(
  ctx: DeliveryContext,
  lane: string,
  run: Deno.KvEntry<LaneRun>,
): Promise<Step> {
  const current = await getLaneRun(ctx.kv, lane);
  return current.value?.token === run.value.token &&
      current.value.leaseOwner === run.value.leaseOwner
    ? { kind: "next", run: current as Deno.KvEntry<LaneRun> }
    : { kind: "lost" };
}

async function endWithoutSending(
  ctx: DeliveryContext,
  lane: string,
  log: Deno.KvEntry<SendLog>,
  entry: LaneEntry,
  error: string,
  status: "failed" | "dead" = "failed",
) {
  const now = ctx.now();
  const next: SendLog = { ...log.value, status, error, updatedAt: now };
  await recordOutcome(ctx.kv, lane, log, next, entry.failures, now, ctx.retentionMs);
  ctx.log.warn(`delivery unit ${status}`, { eventId: next.eventId, logId: next.id, error });
}

/** Records what an attempt came to and tells the lane what to do next. */
async function settle(
  ctx: DeliveryContext,
  lane: string,
  run: Deno.KvEntry<LaneRun>,
  log: Deno.KvEntry<SendLog>,
  entry: LaneEntry,
  result: SendResult,
): Promise<Step> {
  const decision = decide(result, entry.failures, ctx.backoffMs);
  const now = ctx.now();
  const next = outcomeLog(log.value, result, decision, now);
  await recordOutcome(ctx.kv, lane, log, next, decision.failures, now, ctx.retentionMs);
  await trackSentMessage(ctx.kv, next, ctx.log);
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
    ? { kind: "next", run }
    : { kind: "wait", delayMs: decision.delayMs };
}

async function step(ctx: DeliveryContext, lane: string, run: Deno.KvEntry<LaneRun>): Promise<Step> {
  const { head, tailStamp } = await readLaneHead(ctx.kv, lane);
  if (!head) {
    if (await finishLane(ctx.kv, lane, run, tailStamp)) return { kind: "idle" };
    return await stillOwned(ctx, lane, run);
  }
  const log = await getSendLogEntry(ctx.kv, head.value.logId);
  if (!log || log.value.status !== "retrying") {
    await dropLaneEntry(ctx.kv, head);
    return { kind: "next", run };
  }
  const sender = ctx.senders[log.value.platform] as PlatformSender | undefined;
  if (!sender) {
    await endWithoutSending(
      ctx,
      lane,
      log,
      head.value,
      `unknown platform "${log.value.platform}"`,
    );
    return { kind: "next", run };
  }
  const body = await getUnitBody(ctx.kv, log.value.id);
  const blocked = sender.unavailable() ??
    (body === null ? "the rendered message has expired" : null);
  if (blocked) {
    await endWithoutSending(ctx, lane, log, head.value, blocked);
    return { kind: "next", run };
  }
  if (await mustWaitForOlderEvents(ctx, log.value.eventId)) {
    return { kind: "wait", delayMs: ORDER_POLL_MS };
  }
  const verdict = await ctx.targets.check(log.value);
  if (verdict.kind === "refused") {
    await endWithoutSending(ctx, lane, log, head.value, verdict.error, "dead");
    return { kind: "next", run };
  }
  if (verdict.kind === "unsure") {
    return await settle(ctx, lane, run, log, head.value, verdict.result);
  }
  const reservation = sender.reserve(log.value.target, ctx.maxSleepMs);
  if (!reservation.granted) return { kind: "wait", delayMs: reservation.waitMs };
  if (reservation.waitMs > 0) await ctx.sleep(reservation.waitMs);

  const sending = await markSending(ctx.kv, run, log, ctx.now(), ctx.retentionMs);
  if (!sending) return await stillOwned(ctx, lane, run);
  const result = await sendOrEdit(ctx, sender, log.value, body); // edit in place, else send
  return await settle(ctx, lane, run, sending, head.value, result);
}

/** Handles one lane message: sends what the lane holds, then passes the lane on or idles it. */
export async function runLane(ctx: DeliveryContext, message: LaneMessage): Promise<void> {
  const owner = crypto.randomUUID();
  const lease = await takeLease(ctx.kv, message, owner, ctx.now(), ctx.leaseMs);
  if (lease.kind === "stale") return;
  if (lease.kind === "busy") {
    await requeueLaneMessage(ctx.kv, message, lease.untilMs - ctx.now());
    return;
  }
  let run = lease.run;
  const startedAt = ctx.now();
  while (ctx.now() - startedAt < ctx.laneBudgetMs) {
    const outcome = await step(ctx, message.lane, run);
    if (outcome.kind === "idle" || outcome.kind === "lost") return;
    if (outcome.kind === "wait") {
      await handOffLane(ctx.kv, message.lane, run, outcome.delayMs, ctx.now());
      return;
    }
    run = outcome.run;
  }
  await handOffLane(ctx.kv, message.lane, run, 0, ctx.now());
}
