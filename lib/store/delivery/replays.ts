/**
 * Bulk replays: a group's selection of send logs (`replay_selection.ts`) sent again, either
 * the same messages (their stored rendered bodies, as redelivery does) or their events through
 * the current routes. A replay is a record under `["replays", internalId, id]` and a `replay`
 * job that walks the selection in pages. Its progress (the cursor and the counts) is written
 * in the same commit as the units it puts back in their lanes, checked against the record, so
 * a walk that stops anywhere (a crash, a pause) continues after the last committed page and a
 * unit is never put back twice by one replay. Pausing or cancelling changes the record, which
 * fails the walker's next commit; resuming adds a job.
 */
import type { AtomicOperation, Kv, KvEntry, KvEntryMaybe } from "../backend/types.ts";
import { addAuditEntry, type AuditActor, type AuditEntry } from "../telemetry/audit.ts";
import { addJob } from "./jobs.ts";
import type { LaneRun } from "./lanes.ts";
import { laneRunKey, replayKey, replaysOfGroupPrefix } from "../keys.ts";
import type { ReplayFilter } from "./replay_selection.ts";
import { addRequeue, type UnitToRequeue } from "./units.ts";
import { laneKeyFor } from "../../target_ref.ts";

/** `messages`: the stored messages sent again; `routes`: the events through the current routes. */
export type ReplayMode = "messages" | "routes";

/** Where a replay stands. */
export type ReplayState = "running" | "paused" | "cancelled" | "done";

/** One bulk replay. */
export interface Replay {
  /** A ulid. */
  id: string;
  groupId: string;
  groupInternalId: string;
  filter: ReplayFilter;
  mode: ReplayMode;
  /** Send again what was delivered too (routes mode only). */
  includeDelivered: boolean;
  state: ReplayState;
  /** Send logs the filter selected when the replay started. */
  total: number;
  /** Selected send logs looked at so far. */
  walked: number;
  /** Units put back in their lanes (messages) or events accepted again (routes). */
  sent: number;
  /** Selected logs or events left alone: delivered, or still being sent. */
  skipped: number;
  /** Selected logs whose body or event payload is past retention. */
  expired: number;
  /** The id of the last send log looked at. */
  cursor?: string;
  /** The last event looked at (routes mode: each event is replayed once). */
  lastEventId?: string;
  createdBy: AuditActor;
  /** Unix ms. */
  createdAt: number;
  /** Unix ms. */
  updatedAt: number;
}

/** The job that walks a replay. */
interface ReplayJob {
  type: "replay";
  groupInternalId: string;
  replayId: string;
}

/** Whether a job message is a well-formed replay job. */
export function isReplayJob(message: unknown): message is ReplayJob {
  const job = message as Partial<ReplayJob> | null;
  return typeof job === "object" && job !== null && job.type === "replay" &&
    typeof job.groupInternalId === "string" && typeof job.replayId === "string";
}

/** How long a replay record is kept after it was last changed. */
export const REPLAY_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

function jobOf(replay: Replay): ReplayJob {
  return { type: "replay", groupInternalId: replay.groupInternalId, replayId: replay.id };
}

function addReplay(op: AtomicOperation, replay: Replay): AtomicOperation {
  return op.set(replayKey(replay.groupInternalId, replay.id), replay, { expireIn: REPLAY_KEEP_MS });
}

function auditIn(op: AtomicOperation, replay: Replay, entry: AuditEntry): AtomicOperation {
  return addAuditEntry(op, entry, new Map([[replay.groupId, replay.groupInternalId]]));
}

/** Stores a new replay with its job and its audit entry, in one commit. */
export async function startReplay(kv: Kv, replay: Replay, audit: AuditEntry): Promise<void> {
  const op = kv.atomic().check({
    key: replayKey(replay.groupInternalId, replay.id),
    versionstamp: null,
  });
  addJob(auditIn(addReplay(op, replay), replay, audit), jobOf(replay));
  if (!(await op.commit()).ok) throw new Error(`Cannot store replay ${replay.id}`);
}

/** A replay of the group with that internal id, with its versionstamp, or null. */
export async function getReplayEntry(
  kv: Kv,
  groupInternalId: string,
  replayId: string,
): Promise<KvEntry<Replay> | null> {
  const entry = await kv.get<Replay>(replayKey(groupInternalId, replayId));
  return entry.versionstamp === null ? null : entry as KvEntry<Replay>;
}

/** The group's replays, newest first (at most `limit`). */
export async function listReplays(
  kv: Kv,
  groupInternalId: string,
  limit = 20,
): Promise<Replay[]> {
  const entries = kv.list<Replay>({ prefix: replaysOfGroupPrefix(groupInternalId) }, {
    reverse: true,
    limit,
  });
  return (await Array.fromAsync(entries)).map((entry) => entry.value);
}

/**
 * Writes a replay's new state, checked against the record as read, with its audit entry; a
 * replay set running again gets a job. False when the record changed meanwhile.
 */
export async function changeReplayState(
  kv: Kv,
  entry: KvEntry<Replay>,
  next: Replay,
  audit: AuditEntry,
): Promise<boolean> {
  const op = auditIn(addReplay(kv.atomic().check(entry), next), next, audit);
  if (next.state === "running") addJob(op, jobOf(next));
  return (await op.commit()).ok;
}

/**
 * Commits one page of a replay: its progress `next`, checked against the record as read, and
 * the units put back in their lanes with a fresh retry schedule, each checked against its log
 * as read (and each lane's run record once), as redelivery does. `runs` holds the run record
 * of every lane the units join. The new record entry, or null when anything changed.
 */
export async function commitReplayPage(
  kv: Kv,
  entry: KvEntry<Replay>,
  next: Replay,
  units: readonly UnitToRequeue[],
  runs: ReadonlyMap<string, KvEntryMaybe<LaneRun>>,
  now: number,
  retentionMs: number,
): Promise<KvEntry<Replay> | null> {
  const op = addReplay(kv.atomic().check(entry), next);
  const joined = new Set<string>();
  for (const unit of units) {
    const lane = laneKeyFor(unit.log.value.target);
    addRequeue(op, unit, lane, joined.has(lane) ? null : runs.get(lane)!, now, retentionMs);
    joined.add(lane);
  }
  const result = await op.commit();
  return result.ok ? { ...entry, value: next, versionstamp: result.versionstamp } : null;
}

/** The run records of `lanes`, read together. */
export async function readLaneRuns(
  kv: Kv,
  lanes: readonly string[],
): Promise<Map<string, KvEntryMaybe<LaneRun>>> {
  const runs = new Map<string, KvEntryMaybe<LaneRun>>();
  const read = lanes.length === 0 ? [] : await kv.getMany<LaneRun[]>(lanes.map(laneRunKey));
  lanes.forEach((lane, index) => runs.set(lane, read[index]));
  return runs;
}
