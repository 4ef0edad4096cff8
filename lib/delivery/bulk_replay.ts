/**
 * The `replay` job: walks a bulk replay's selection (lib/store/delivery/replay_selection.ts) page by
 * page from its cursor, while the replay is running. Re-sending the same messages puts failed
 * and dead units back in their lanes, at most {@link MAX_UNITS_PER_PAGE} per commit, in the
 * commit that advances the cursor (lib/store/delivery/replays.ts); the lanes then send them at the
 * platforms' pace like any unit. Replaying through the current routes accepts each selected
 * event again as a new event of the group under the delivery id `replay-<replay>-<event>`, so
 * a page walked again after a crash within the dedup window accepts nothing twice; its
 * progress is then committed, onto a paused or cancelled record too, so a page is not walked
 * twice after a pause.
 */
import type { Kv, KvEntry } from "../store/backend/types.ts";
import type { QueueHandler } from "./job_worker.ts";
import {
  commitReplayPage,
  getReplayEntry,
  isReplayJob,
  readLaneRuns,
  type Replay,
} from "../store/delivery/replays.ts";
import { selectedLogs } from "../store/delivery/replay_selection.ts";
import type { SendLog } from "../store/delivery/send_logs.ts";
import { getUnits, type UnitToRequeue } from "../store/delivery/units.ts";
import { laneKeyFor } from "../target_ref.ts";
import { MAX_CHECKS_PER_COMMIT } from "../store/commit_limits.ts";
import { acceptEventAgain } from "./accept_again.ts";
import type { DeliveryContext } from "./context.ts";
import { eventVerdict, unitVerdict } from "./replay_plan.ts";

/** Most logs one page looks at. */
const MAX_LOGS_PER_PAGE = 100;
/** Most units one page puts back (each is a check, as is the record and each new lane). */
const MAX_UNITS_PER_PAGE = 4;
/** Most events one page accepts again. */
const MAX_EVENTS_PER_PAGE = 10;

/** What walking a replay needs: the store, the clock and how long units are kept. */
type ReplayContext = Pick<DeliveryContext, "kv" | "now" | "retentionMs">;

/** What a page did. */
type Step = "more" | "stopped";

/** The counts a page adds to a replay. */
interface PageCounts {
  walked: number;
  sent: number;
  skipped: number;
  expired: number;
}

function advanced(replay: Replay, counts: PageCounts, last: SendLog, now: number): Replay {
  return {
    ...replay,
    walked: replay.walked + counts.walked,
    sent: replay.sent + counts.sent,
    skipped: replay.skipped + counts.skipped,
    expired: replay.expired + counts.expired,
    cursor: last.id,
    lastEventId: last.eventId,
    updatedAt: now,
  };
}

async function finish(kv: Kv, entry: KvEntry<Replay>, now: number): Promise<Step> {
  const done: Replay = { ...entry.value, state: "done", updatedAt: now };
  return (await commitReplayPage(kv, entry, done, [], new Map(), now, 0)) ? "stopped" : "more";
}

/** Checks a set of units takes in one commit: the record, one per unit, one per lane. */
function checksOf(logs: readonly SendLog[]): number {
  return 1 + logs.length + new Set(logs.map((log) => laneKeyFor(log.target))).size;
}

/** One page of re-sending the same messages, in one commit with its progress. */
async function messagesPage(ctx: ReplayContext, entry: KvEntry<Replay>): Promise<Step> {
  const replay = entry.value;
  const counts: PageCounts = { walked: 0, sent: 0, skipped: 0, expired: 0 };
  const candidates: SendLog[] = [];
  let last: SendLog | undefined;
  const walk = selectedLogs(ctx.kv, replay.groupInternalId, replay.filter, replay.cursor);
  for await (const log of walk) {
    if (unitVerdict(log) === "send") {
      const full = candidates.length >= MAX_UNITS_PER_PAGE ||
        checksOf([...candidates, log]) > MAX_CHECKS_PER_COMMIT;
      if (full) break;
      candidates.push(log);
    } else {
      counts.skipped++;
    }
    counts.walked++;
    last = log;
    if (counts.walked >= MAX_LOGS_PER_PAGE) break;
  }
  const now = ctx.now();
  if (!last) return await finish(ctx.kv, entry, now);
  const units: UnitToRequeue[] = [];
  for (const { log, body } of await getUnits(ctx.kv, candidates.map((log) => log.id))) {
    if (!log || unitVerdict(log.value) !== "send") counts.skipped++;
    else if (body === null) counts.expired++;
    else units.push({ log, body });
  }
  counts.sent = units.length;
  const lanes = [...new Set(units.map((unit) => laneKeyFor(unit.log.value.target)))];
  const runs = await readLaneRuns(ctx.kv, lanes);
  const next = advanced(replay, counts, last, now);
  await commitReplayPage(ctx.kv, entry, next, units, runs, now, ctx.retentionMs);
  return "more"; // committed or not, the next page reads the record again
}

/** One page of replaying events through the current routes, then its progress. */
async function routesPage(ctx: ReplayContext, entry: KvEntry<Replay>): Promise<Step> {
  const replay = entry.value;
  const counts: PageCounts = { walked: 0, sent: 0, skipped: 0, expired: 0 };
  let last: SendLog | undefined;
  let events = 0;
  const walk = selectedLogs(ctx.kv, replay.groupInternalId, replay.filter, replay.cursor);
  for await (const log of walk) {
    const newEvent = log.eventId !== (last?.eventId ?? replay.lastEventId);
    if (newEvent && events >= MAX_EVENTS_PER_PAGE) break;
    counts.walked++;
    last = log;
    if (!newEvent) continue;
    events++;
    const verdict = await eventVerdict(ctx.kv, log, replay.includeDelivered);
    if (verdict !== "send") {
      counts.skipped++;
      continue;
    }
    const deliveryId = `replay-${replay.id}-${log.eventId}`;
    const outcome = await acceptEventAgain(
      ctx.kv,
      log.eventId,
      { groupId: replay.groupId, internalId: replay.groupInternalId },
      deliveryId,
      ctx.now(),
    );
    if (outcome.status === "expired") counts.expired++;
    else counts.sent++;
  }
  const now = ctx.now();
  if (!last) return await finish(ctx.kv, entry, now);
  for (let current: KvEntry<Replay> | null = entry; current !== null;) {
    if (current.value.cursor !== replay.cursor) return "more"; // another walker took this page
    const next = advanced(current.value, counts, last, now);
    if (await commitReplayPage(ctx.kv, current, next, [], new Map(), now, 0)) return "more";
    current = await getReplayEntry(ctx.kv, replay.groupInternalId, replay.id);
  }
  return "stopped";
}

/** Walks one page of a replay if it is running; "stopped" when it is not (or is gone). */
export async function replayPage(
  ctx: ReplayContext,
  groupInternalId: string,
  replayId: string,
): Promise<Step> {
  const entry = await getReplayEntry(ctx.kv, groupInternalId, replayId);
  if (!entry || entry.value.state !== "running") return "stopped";
  return entry.value.mode === "routes"
    ? await routesPage(ctx, entry)
    : await messagesPage(ctx, entry);
}

/** The `replay` job handler: walks the replay until it is done, paused or cancelled. */
export function replayHandler(ctx: DeliveryContext): QueueHandler {
  return async (message) => {
    if (!isReplayJob(message)) {
      ctx.log.error("malformed replay job dropped", { message });
      return;
    }
    while (await replayPage(ctx, message.groupInternalId, message.replayId) === "more") {
      // each page commits its own progress
    }
  };
}
