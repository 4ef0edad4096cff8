/**
 * Digests (docs/noise.md): the events of one route gathered for one target within one window,
 * shown as one message. A window is opened by the first event of the route to the lane and
 * lasts the route's `windowSeconds` (quiet hours: until the hours end); `["digest_windows", …]`
 * points at its digest. Each unit of such a route gets a member record saying whether it was
 * sent as usual or gathered, written in the same commit as the digest's count, so a unit
 * tried again is never counted twice. Opening a window adds its closing job (lib/store/delivery/jobs.ts),
 * due when it ends, in the same commit. The close goes into the target's lane in a commit that
 * also marks the digest (`closeQueuedAt`), so it is queued once, by the job or by the sweep.
 */
import type { Kv, KvEntry, KvEntryMaybe } from "../backend/types.ts";
import type { Target } from "../../types.ts";
import { addJob, putJob } from "./jobs.ts";
import { appendToLane, getLaneRun, type LaneEntry } from "./lanes.ts";
import { digestKey, digestMemberKey, digestsPrefix, digestWindowKey } from "../keys.ts";

/** Most events a digest lists by name; the rest are counted. */
export const DIGEST_ITEMS = 20;

/** Why a digest exists: a burst beyond the route's threshold, or quiet hours. */
export type DigestKind = "burst" | "quiet";

/** One event of a digest, as listed. */
export interface DigestItem {
  title: string;
  url?: string;
}

/** The value at `["digests", id]`. */
export interface DigestRecord {
  id: string;
  kind: DigestKind;
  groupId: string;
  /** The internal id of the group that opened the digest (absent on older records). */
  groupInternalId?: string;
  routeId: string;
  routeName: string;
  target: Target;
  /** Unix ms: when the window opened and when it ends. */
  opensAt: number;
  closesAt: number;
  /** Units of the window sent as usual (at most the route's threshold). */
  direct: number;
  /** Units gathered into the digest. */
  count: number;
  /** The first {@link DIGEST_ITEMS} gathered events. */
  items: DigestItem[];
  /** The digest message, once posted. */
  messageId?: string;
  /** The count the posted message shows, and when it was last written (Unix ms). */
  shownCount: number;
  shownAt?: number;
  /** Whether the window ended and the message shows its final count. */
  closed: boolean;
  /**
   * When the close was put in the target's lane (Unix ms); absent before, and on digests left
   * by versions that closed them through a KV queue.
   */
  closeQueuedAt?: number;
}

/** The value at `["digest_windows", …]`. */
interface DigestWindow {
  digestId: string;
  closesAt: number;
}

/** The value at `["digest_members", logId]`. */
interface DigestMember {
  digestId: string;
  mode: "direct" | "digested";
}

/** The job that closes a digest when its window ends. */
interface DigestCloseJob {
  type: "digest_close";
  digestId: string;
}

/** Whether a job's message is a {@link DigestCloseJob}. */
export function isDigestCloseJob(message: unknown): message is DigestCloseJob {
  const job = message as DigestCloseJob | null;
  return typeof job === "object" && job !== null && job.type === "digest_close" &&
    typeof job.digestId === "string" && job.digestId.length <= 100;
}

/** How long digest records are kept after their window ends. */
export const KEEP_MS = 7 * 24 * 3_600_000;

/** The member record of a unit, when it has one. */
export async function getDigestMember(kv: Kv, logId: string): Promise<DigestMember | null> {
  return (await kv.get<DigestMember>(digestMemberKey(logId))).value;
}

/** A digest with its versionstamp. */
export async function getDigestEntry(
  kv: Kv,
  digestId: string,
): Promise<KvEntryMaybe<DigestRecord>> {
  return await kv.get<DigestRecord>(digestKey(digestId));
}

/** Where a unit joins: the lane's window pointer and its digest, as read. */
interface WindowRead {
  pointer: KvEntryMaybe<DigestWindow>;
  digest: KvEntryMaybe<DigestRecord> | null;
}

/** Reads the open window of a route for a lane. */
export async function readWindow(
  kv: Kv,
  kind: DigestKind,
  groupId: string,
  routeId: string,
  lane: string,
): Promise<WindowRead> {
  const pointer = await kv.get<DigestWindow>(digestWindowKey(kind, groupId, routeId, lane));
  const digest = pointer.value ? await getDigestEntry(kv, pointer.value.digestId) : null;
  return { pointer, digest };
}

/** A unit joining a window: the digest after it, and how the unit goes. */
interface WindowJoin {
  lane: string;
  read: WindowRead;
  next: DigestRecord;
  logId: string;
  mode: DigestMember["mode"];
  /** True when this join opens the window (the pointer moves, the closing job is queued). */
  opens: boolean;
  now: number;
}

/** Commits a join, checked against what was read; false when something changed meanwhile. */
export async function commitJoin(kv: Kv, join: WindowJoin): Promise<boolean> {
  const { next } = join;
  const expireIn = Math.max(next.closesAt - join.now, 0) + KEEP_MS;
  const windowKey = digestWindowKey(next.kind, next.groupId, next.routeId, join.lane);
  const op = kv.atomic()
    .check({ key: windowKey, versionstamp: join.read.pointer.versionstamp })
    .check({
      key: digestKey(next.id),
      versionstamp: join.opens ? null : join.read.digest!.versionstamp,
    })
    .check({ key: digestMemberKey(join.logId), versionstamp: null })
    .set(digestKey(next.id), next, { expireIn })
    .set(
      digestMemberKey(join.logId),
      { digestId: next.id, mode: join.mode } satisfies DigestMember,
      {
        expireIn,
      },
    );
  if (join.opens) {
    op.set(windowKey, { digestId: next.id, closesAt: next.closesAt } satisfies DigestWindow, {
      expireIn,
    });
    addJob(op, { type: "digest_close", digestId: next.id } satisfies DigestCloseJob, {
      delayMs: closeDelay(next.closesAt - join.now),
    });
  }
  return (await op.commit()).ok;
}

/** Saves a digest's new state, checked against the entry it was read from; false on a change. */
export async function updateDigest(
  kv: Kv,
  entry: KvEntry<DigestRecord>,
  next: DigestRecord,
  now: number,
): Promise<boolean> {
  const expireIn = Math.max(next.closesAt - now, 0) + KEEP_MS;
  const result = await kv.atomic()
    .check(entry)
    .set(digestKey(next.id), next, { expireIn })
    .commit();
  return result.ok;
}

/**
 * Marks the digest as read (`digest`) as having its close in the lane `lane`, and appends the
 * close entry `entry` there (null: one is there already), in one commit checked against the
 * digest and the lane's run record, so a close is queued once however many callers try. False
 * when either changed meanwhile: read again.
 */
export async function queueDigestClose(
  kv: Kv,
  digest: KvEntry<DigestRecord>,
  lane: string,
  entry: LaneEntry | null,
  now: number,
): Promise<boolean> {
  const next: DigestRecord = { ...digest.value, closeQueuedAt: now };
  const expireIn = Math.max(next.closesAt - now, 0) + KEEP_MS;
  const op = kv.atomic().check(digest).set(digestKey(next.id), next, { expireIn });
  if (entry) appendToLane(op, lane, entry, await getLaneRun(kv, lane), now);
  return (await op.commit()).ok;
}

/** The digests after the id `afterId` (from the first when null), in id order, at most `limit`. */
export async function listDigestsAfter(
  kv: Kv,
  afterId: string | null,
  limit: number,
): Promise<KvEntry<DigestRecord>[]> {
  const selector = afterId === null
    ? { prefix: digestsPrefix() }
    : { prefix: digestsPrefix(), start: digestKey(`${afterId}\0`) };
  return await Array.fromAsync(kv.list<DigestRecord>(selector, { limit }));
}

/** Re-queues a digest's closing job (its window was moved, or closing must be tried later). */
export async function requeueDigestClose(
  kv: Kv,
  digestId: string,
  delayMs: number,
): Promise<void> {
  await putJob(kv, { type: "digest_close", digestId } satisfies DigestCloseJob, {
    delayMs: closeDelay(delayMs),
  });
}

/** A closing job's delay: within a day (a job that comes early is queued again). */
function closeDelay(delayMs: number): number {
  return Math.min(Math.max(delayMs, 0), 24 * 3_600_000);
}
