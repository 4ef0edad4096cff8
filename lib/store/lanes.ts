/**
 * Lanes: the ordered queue of units waiting for one target (a Discord channel
 * or thread, a Telegram chat). Entries live under `["lanes", lane, logId]`,
 * so a lane is read in log id (event) order. A busy lane has a run record
 * `["lane_runs", lane]` holding the token of the one queue message allowed to
 * work on it and, while a runner works, a lease; an idle lane has none.
 *
 * Appending checks the run record, so a unit is never left in an idle lane:
 * either the append sees the lane idle and wakes it (new token, queue message)
 * in the same commit, or the runner's "go idle" commit, which checks the tail
 * counter bumped by every append, fails and the runner looks again.
 */
import {
  laneEntriesPrefix,
  laneEntryKey,
  laneRunKey,
  laneRunsPrefix,
  laneTailKey,
} from "./keys.ts";

/** The queue message that lets one runner work on a lane. */
export interface LaneMessage {
  type: "lane";
  lane: string;
  token: string;
}

/** A busy lane's run record. */
export interface LaneRun {
  /** Only the queue message carrying this token may work on the lane. */
  token: string;
  /** When that message is due (Unix ms). */
  dueAt: number;
  /** The runner holding the lane, until `leaseUntil` (Unix ms). */
  leaseOwner?: string;
  leaseUntil?: number;
}

/** A unit waiting in a lane. */
export interface LaneEntry {
  logId: string;
  /** Retryable failures so far (429s are not failures). */
  failures: number;
}

/**
 * How long a lane woken by an append waits before its first send, so that the
 * units of events accepted together (fanned out concurrently) are all in the
 * lane, in event order, before the runner reads its head.
 */
const GATHER_MS = 100;

/** True when a queue message is a {@link LaneMessage}. */
export function isLaneMessage(message: unknown): message is LaneMessage {
  const candidate = message as Partial<LaneMessage> | null;
  return typeof candidate === "object" && candidate !== null && candidate.type === "lane" &&
    typeof candidate.lane === "string" && typeof candidate.token === "string";
}

/**
 * The longest a lane message is ever delayed. The waits that reach a lane are
 * already bounded (retry schedule, clamped platform waits); this keeps any
 * delay far below the KV queue's 30-day limit, which would otherwise make
 * every hand-off throw.
 */
const MAX_LANE_DELAY_MS = 24 * 60 * 60 * 1000;

/** A queue delay from a wait: whole milliseconds within 0..{@link MAX_LANE_DELAY_MS}, 0 for NaN. */
function laneDelay(delayMs: number): number {
  if (Number.isNaN(delayMs)) return 0;
  return Math.min(MAX_LANE_DELAY_MS, Math.max(0, Math.ceil(delayMs)));
}

function wake(op: Deno.AtomicOperation, lane: string, now: number, delayMs: number) {
  const delay = laneDelay(delayMs);
  const token = crypto.randomUUID();
  op.set(laneRunKey(lane), { token, dueAt: now + delay } satisfies LaneRun);
  op.enqueue({ type: "lane", lane, token } satisfies LaneMessage, { delay });
}

/** The run record of a lane, as an entry (value null when the lane is idle). */
export function getLaneRun(kv: Deno.Kv, lane: string): Promise<Deno.KvEntryMaybe<LaneRun>> {
  return kv.get<LaneRun>(laneRunKey(lane));
}

/**
 * Adds to `op` the writes that append a unit to a lane, waking the lane when
 * `run` (read just before) says it is idle. The commit fails if the run record
 * changed meanwhile; read it again and retry.
 */
export function appendToLane(
  op: Deno.AtomicOperation,
  lane: string,
  entry: LaneEntry,
  run: Deno.KvEntryMaybe<LaneRun>,
  now: number,
): Deno.AtomicOperation {
  op.check({ key: laneRunKey(lane), versionstamp: run.versionstamp });
  op.set(laneEntryKey(lane, entry.logId), entry);
  op.sum(laneTailKey(lane), 1n);
  if (run.value === null) wake(op, lane, now, GATHER_MS);
  return op;
}

/** What a runner found when it tried to take a lane. */
export type LeaseOutcome =
  | { kind: "taken"; run: Deno.KvEntry<LaneRun> }
  | { kind: "stale" }
  | { kind: "busy"; untilMs: number };

const COMMIT_ATTEMPTS = 10;

/**
 * Takes the lane for `owner` until `now + leaseMs` if `token` is still the
 * lane's token (else `stale`) and no other runner holds an unexpired lease
 * (else `busy`).
 */
export async function takeLease(
  kv: Deno.Kv,
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

/** Sends a lane message again after `delayMs`, without touching the lane. */
export async function requeueLaneMessage(
  kv: Deno.Kv,
  message: LaneMessage,
  delayMs: number,
): Promise<void> {
  await kv.enqueue(message, { delay: laneDelay(delayMs) });
}

/**
 * Passes the lane to a new queue message due in `delayMs` and releases the
 * lease. False when the run record changed (another runner owns the lane now).
 */
export async function handOffLane(
  kv: Deno.Kv,
  lane: string,
  run: Deno.KvEntry<LaneRun>,
  delayMs: number,
  now: number,
): Promise<boolean> {
  const op = kv.atomic().check(run);
  wake(op, lane, now, delayMs);
  return (await op.commit()).ok;
}

/** The first waiting unit of a lane (null when empty) and the tail counter's versionstamp. */
export async function readLaneHead(
  kv: Deno.Kv,
  lane: string,
): Promise<{ head: Deno.KvEntry<LaneEntry> | null; tailStamp: string | null }> {
  const tail = await kv.get(laneTailKey(lane));
  for await (const head of kv.list<LaneEntry>({ prefix: laneEntriesPrefix(lane) }, { limit: 1 })) {
    return { head, tailStamp: tail.versionstamp };
  }
  return { head: null, tailStamp: tail.versionstamp };
}

/**
 * Marks an empty lane idle. False when a unit was appended since the tail was
 * read, or the run record changed: look again.
 */
export async function finishLane(
  kv: Deno.Kv,
  lane: string,
  run: Deno.KvEntry<LaneRun>,
  tailStamp: string | null,
): Promise<boolean> {
  const result = await kv.atomic()
    .check(run)
    .check({ key: laneTailKey(lane), versionstamp: tailStamp })
    .delete(laneRunKey(lane))
    .commit();
  return result.ok;
}

/** Removes a lane entry whose unit is already final. */
export async function dropLaneEntry(kv: Deno.Kv, entry: Deno.KvEntry<LaneEntry>): Promise<void> {
  await kv.atomic().check(entry).delete(entry.key).commit();
}

/**
 * Re-issues the token of every busy lane, due when its pending message or
 * lease would have ended, so a lane whose queue message was lost (or is held
 * by a process that stopped) resumes. Messages with the old token become
 * stale. Returns how many lanes were resumed.
 */
export async function resumeLanes(kv: Deno.Kv, now: number): Promise<number> {
  let resumed = 0;
  for await (const run of kv.list<LaneRun>({ prefix: laneRunsPrefix() })) {
    const lane = String(run.key[1]);
    const dueAt = Math.max(run.value.dueAt, run.value.leaseUntil ?? 0, now);
    const op = kv.atomic().check(run);
    wake(op, lane, now, dueAt - now);
    if ((await op.commit()).ok) resumed++;
  }
  return resumed;
}
