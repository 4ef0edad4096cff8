/**
 * Lanes: the ordered queue of units waiting for one target (a Discord channel
 * or thread, a Telegram chat). Entries live under `["lanes", lane, logId]`,
 * so a lane is read in log id (event) order. A busy lane has a run record
 * `["lane_runs", lane]` holding the token of the one lane job (lib/store/delivery/jobs.ts)
 * allowed to work on it and, while a runner works, a lease; an idle lane has none.
 *
 * Appending checks the run record, so a unit is never left in an idle lane:
 * either the append sees the lane idle and wakes it (new token, lane job)
 * in the same commit, or the runner's "go idle" commit, which checks the tail
 * counter bumped by every append, fails and the runner looks again.
 */
import type { AtomicOperation, Kv, KvEntry, KvEntryMaybe, KvKey } from "../backend/types.ts";
import {
  laneEntriesPrefix,
  laneEntryKey,
  lanePaceKey,
  laneRunKey,
  laneRunsPrefix,
  laneTailKey,
} from "../keys.ts";
import { addJob, putJob } from "./jobs.ts";

/** The job that lets one runner work on a lane. */
export interface LaneMessage {
  type: "lane";
  lane: string;
  token: string;
}

/** A busy lane's run record. */
export interface LaneRun {
  /** Only the lane job carrying this token may work on the lane. */
  token: string;
  /** When that job is due (Unix ms). */
  dueAt: number;
  /** The runner holding the lane, until `leaseUntil` (Unix ms). */
  leaseOwner?: string;
  leaseUntil?: number;
  /**
   * The lane waits for its platform to be configured (no bot token): its job is due only in a
   * day, and the start-up of the next process ({@link resumeLanes}) wakes it at once.
   */
  parked?: true;
}

/** A unit waiting in a lane. */
export interface LaneEntry {
  logId: string;
  /** Retryable failures so far (429s are not failures). */
  failures: number;
  /** 429s answered in a row (since the last other answer). */
  rateLimits?: number;
  /** When the first of those 429s came (Unix ms). */
  rateLimitedSince?: number;
}

/**
 * How long a lane woken by an append waits before its first send, so that the
 * units of events accepted together (fanned out concurrently) are all in the
 * lane, in event order, before the runner reads its head.
 */
const GATHER_MS = 100;

/** True when a job's message is a {@link LaneMessage}. */
export function isLaneMessage(message: unknown): message is LaneMessage {
  const candidate = message as Partial<LaneMessage> | null;
  return typeof candidate === "object" && candidate !== null && candidate.type === "lane" &&
    typeof candidate.lane === "string" && typeof candidate.token === "string";
}

/**
 * The longest a lane job is ever delayed. The waits that reach a lane are
 * already bounded (retry schedule, clamped platform waits); this bounds any
 * other.
 */
const MAX_LANE_DELAY_MS = 24 * 60 * 60 * 1000;

/** A job delay from a wait: whole milliseconds within 0..{@link MAX_LANE_DELAY_MS}, 0 for NaN. */
function laneDelay(delayMs: number): number {
  if (Number.isNaN(delayMs)) return 0;
  return Math.min(MAX_LANE_DELAY_MS, Math.max(0, Math.ceil(delayMs)));
}

function wake(op: AtomicOperation, lane: string, now: number, delayMs: number, parked = false) {
  const delay = laneDelay(delayMs);
  const token = crypto.randomUUID();
  const run: LaneRun = { token, dueAt: now + delay };
  if (parked) run.parked = true;
  op.set(laneRunKey(lane), run);
  addJob(op, { type: "lane", lane, token } satisfies LaneMessage, { delayMs: delay });
}

/** The run record of a lane, as an entry (value null when the lane is idle). */
export function getLaneRun(kv: Kv, lane: string): Promise<KvEntryMaybe<LaneRun>> {
  return kv.get<LaneRun>(laneRunKey(lane));
}

/**
 * Adds to `op` the writes that append a unit to a lane, waking the lane when
 * `run` (read just before) says it is idle. The commit fails if the run record
 * changed meanwhile; read it again and retry.
 */
export function appendToLane(
  op: AtomicOperation,
  lane: string,
  entry: LaneEntry,
  run: KvEntryMaybe<LaneRun>,
  now: number,
): AtomicOperation {
  op.check({ key: laneRunKey(lane), versionstamp: run.versionstamp });
  joinLane(op, lane, entry);
  if (run.value === null) wake(op, lane, now, GATHER_MS);
  return op;
}

/**
 * Adds to `op` the writes of one more unit in a lane that an earlier
 * {@link appendToLane} of the same operation already checked (and woke).
 */
export function joinLane(op: AtomicOperation, lane: string, entry: LaneEntry) {
  op.set(laneEntryKey(lane, entry.logId), entry);
  op.sum(laneTailKey(lane), 1n);
}

/** What a runner found when it tried to take a lane. */
type LeaseOutcome =
  | { kind: "taken"; run: KvEntry<LaneRun> }
  | { kind: "stale" }
  | { kind: "busy"; untilMs: number };

const COMMIT_ATTEMPTS = 10;

/**
 * Takes the lane for `owner` until `now + leaseMs` if `token` is still the
 * lane's token (else `stale`) and no other runner holds an unexpired lease
 * (else `busy`).
 */
export async function takeLease(
  kv: Kv,
  message: LaneMessage,
  owner: string,
  now: number,
  leaseMs: number,
): Promise<LeaseOutcome> {
  for (let attempt = 0; attempt < COMMIT_ATTEMPTS; attempt++) {
    const run = await getLaneRun(kv, message.lane);
    if (run.value === null || run.value.token !== message.token) return { kind: "stale" };
    if (run.value.leaseUntil !== undefined && run.value.leaseUntil > now) {
      return { kind: "busy", untilMs: run.value.leaseUntil };
    }
    const taken: LaneRun = { ...run.value, leaseOwner: owner, leaseUntil: now + leaseMs };
    const result = await kv.atomic().check(run).set(laneRunKey(message.lane), taken).commit();
    if (result.ok) {
      return { kind: "taken", run: { ...run, value: taken, versionstamp: result.versionstamp } };
    }
  }
  return { kind: "stale" };
}

/** Adds a lane job again, due in `delayMs`, without touching the lane. */
export async function requeueLaneMessage(
  kv: Kv,
  message: LaneMessage,
  delayMs: number,
): Promise<void> {
  const { type, lane, token } = message;
  await putJob(kv, { type, lane, token } satisfies LaneMessage, { delayMs: laneDelay(delayMs) });
}

/**
 * Passes the lane to a new lane job due in `delayMs` and releases the
 * lease. False when the run record changed (another runner owns the lane now).
 */
export async function handOffLane(
  kv: Kv,
  lane: string,
  run: KvEntry<LaneRun>,
  delayMs: number,
  now: number,
  pace: StoredPace | null = null,
): Promise<boolean> {
  const op = kv.atomic().check(run);
  wake(op, lane, now, delayMs);
  leavePace(op, lane, pace, now);
  return (await op.commit()).ok;
}

/**
 * Parks the lane until a process starts with its platform configured: its units stay in it,
 * its job is due in a day (when it looks again), and {@link resumeLanes} wakes it at start-up.
 * False when the run record changed.
 */
export async function parkLane(
  kv: Kv,
  lane: string,
  run: KvEntry<LaneRun>,
  now: number,
): Promise<boolean> {
  const op = kv.atomic().check(run);
  wake(op, lane, now, MAX_LANE_DELAY_MS, true);
  return (await op.commit()).ok;
}

/**
 * A lane's rate-limit state, left by its owner for the next one (the delivery
 * layer gives its meaning): the value, and until when it matters (Unix ms).
 */
export interface StoredPace {
  value: unknown;
  until: number;
}

/** How long a lane's pace is kept after the time it matters until. */
const PACE_MARGIN_MS = 60_000;

function leavePace(op: AtomicOperation, lane: string, pace: StoredPace | null, now: number) {
  if (pace === null) return;
  const expireIn = Math.ceil(Math.max(pace.until, now) - now) + PACE_MARGIN_MS;
  op.set(lanePaceKey(lane), pace.value, { expireIn });
}

/** The rate-limit state the lane's previous owner left (null when none). */
export async function readLanePace(kv: Kv, lane: string): Promise<unknown> {
  return (await kv.get(lanePaceKey(lane))).value;
}

/**
 * Extends the runner's lease on a lane it still holds. Returns the updated run
 * record, or null when the lane changed hands.
 */
export async function renewLease(
  kv: Kv,
  lane: string,
  run: KvEntry<LaneRun>,
  now: number,
  leaseMs: number,
): Promise<KvEntry<LaneRun> | null> {
  const renewed: LaneRun = { ...run.value, leaseUntil: now + leaseMs };
  const result = await kv.atomic().check(run).set(laneRunKey(lane), renewed).commit();
  return result.ok ? { ...run, value: renewed, versionstamp: result.versionstamp } : null;
}

/**
 * The first `limit` waiting units of a lane, in order, and the tail counter's
 * versionstamp read before them (for {@link finishLane} when there are none).
 */
export async function readLaneEntries(
  kv: Kv,
  lane: string,
  limit: number,
): Promise<{ entries: KvEntry<LaneEntry>[]; tailStamp: string | null }> {
  const tail = await kv.get(laneTailKey(lane));
  const entries: KvEntry<LaneEntry>[] = [];
  for await (const entry of kv.list<LaneEntry>({ prefix: laneEntriesPrefix(lane) }, { limit })) {
    entries.push(entry);
  }
  return { entries, tailStamp: tail.versionstamp };
}

/** Every waiting entry of a lane, in order (read lazily). */
export function listLaneEntries(kv: Kv, lane: string): AsyncIterable<KvEntry<LaneEntry>> {
  return kv.list<LaneEntry>({ prefix: laneEntriesPrefix(lane) });
}

/**
 * Marks an empty lane idle. False when a unit was appended since the tail was
 * read, or the run record changed: look again.
 */
export async function finishLane(
  kv: Kv,
  lane: string,
  run: KvEntry<LaneRun>,
  tailStamp: string | null,
  pace: StoredPace | null,
  now: number,
): Promise<boolean> {
  const op = kv.atomic()
    .check(run)
    .check({ key: laneTailKey(lane), versionstamp: tailStamp })
    .delete(laneRunKey(lane));
  leavePace(op, lane, pace, now);
  return (await op.commit()).ok;
}

/**
 * Appends an entry that is no unit (a digest's close) to a lane, waking the lane when it is
 * idle. False when the lane kept changing under the append.
 */
export async function appendLaneEntry(
  kv: Kv,
  lane: string,
  entry: LaneEntry,
  now: number,
): Promise<boolean> {
  for (let attempt = 0; attempt < COMMIT_ATTEMPTS; attempt++) {
    const run = await getLaneRun(kv, lane);
    if ((await appendToLane(kv.atomic(), lane, entry, run, now).commit()).ok) return true;
  }
  return false;
}

/** Replaces a lane entry with `next` (its counts after an attempt); false when it changed. */
export async function keepLaneEntry(
  kv: Kv,
  entry: KvEntry<LaneEntry>,
  next: LaneEntry,
): Promise<boolean> {
  return (await kv.atomic().check(entry).set(entry.key, next).commit()).ok;
}

/** Removes a lane entry whose unit is already final. */
export async function dropLaneEntry(kv: Kv, entry: KvEntry<LaneEntry>): Promise<void> {
  await kv.atomic().check(entry).delete(entry.key).commit();
}

/**
 * Re-issues the token of every busy lane that no live runner holds, due when
 * its pending job would have come (a parked lane: now, as its platform may be configured in
 * this process), so a lane whose job was lost (or is held by a process that stopped) resumes. Jobs with the old token
 * become stale. A lane leased by a live runner (another instance) is left to
 * it; if that runner dies, its lease runs out and the sweep wakes the lane.
 * Returns how many lanes were resumed.
 */
export async function resumeLanes(kv: Kv, now: number): Promise<number> {
  let resumed = 0;
  for await (const run of kv.list<LaneRun>({ prefix: laneRunsPrefix() })) {
    if ((run.value.leaseUntil ?? 0) > now) continue;
    const lane = String(run.key[1]);
    const dueAt = run.value.parked
      ? now
      : Math.max(run.value.dueAt, run.value.leaseUntil ?? 0, now);
    const op = kv.atomic().check(run);
    wake(op, lane, now, dueAt - now);
    if ((await op.commit()).ok) resumed++;
  }
  return resumed;
}

/**
 * Wakes lanes that stalled: a lease that ended without the lane being passed
 * on (its runner's process stopped or lost the store), or a lane job due
 * more than `stallMs` ago that never ran (it is dead, or its claim is held by
 * a process that stopped). Returns how many lanes were woken.
 */
export async function recoverStalledLanes(
  kv: Kv,
  now: number,
  stallMs: number,
): Promise<number> {
  let woken = 0;
  for await (const run of kv.list<LaneRun>({ prefix: laneRunsPrefix() })) {
    const leased = run.value.leaseUntil !== undefined;
    const stalled = leased ? run.value.leaseUntil! < now : run.value.dueAt < now - stallMs;
    if (!stalled) continue;
    const op = kv.atomic().check(run);
    wake(op, String(run.key[1]), now, 0);
    if ((await op.commit()).ok) woken++;
  }
  return woken;
}

/**
 * Puts a `retrying` unit whose lane entry is missing back in its lane (waking
 * it when idle), or wakes its lane when the lane is idle with the entry in it.
 * True when something had to be done.
 */
export async function reattachUnit(
  kv: Kv,
  lane: string,
  logId: string,
  logStamp: string,
  logKey: KvKey,
  now: number,
): Promise<boolean> {
  const [entry, run] = await kv.getMany<[LaneEntry, LaneRun]>([
    laneEntryKey(lane, logId),
    laneRunKey(lane),
  ]);
  if (entry.value !== null && run.value !== null) return false;
  const op = kv.atomic().check({ key: logKey, versionstamp: logStamp });
  if (entry.value === null) {
    appendToLane(op, lane, { logId, failures: 0 }, run, now);
  } else {
    op.check(run).sum(laneTailKey(lane), 1n);
    wake(op, lane, now, 0);
  }
  return (await op.commit()).ok;
}
