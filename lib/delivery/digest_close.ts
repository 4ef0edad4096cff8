/**
 * Closing a digest in its target's lane. When a digest's window ends its closing job
 * (`digest_close`) puts a close entry in the lane of the digest's target, so the final post or
 * edit takes its turn behind the units before it and is paced like them (`chat_calls.ts`). The
 * entry's id is a ulid of the moment it was queued followed by the digest's id, so it sorts
 * among the units by time like an event's. The job waits (a bounded time) until a lane worked
 * in this process has closed the digest, so it ends when the digest is closed here.
 */
import type { KvEntry, KvEntryMaybe } from "../store/backend/types.ts";
import {
  type DigestRecord,
  getDigestEntry,
  isDigestCloseJob,
  listDigestsAfter,
  queueDigestClose,
} from "../store/delivery/digests.ts";
import {
  dropLaneEntry,
  keepLaneEntry,
  type LaneEntry,
  listLaneEntries,
} from "../store/delivery/lanes.ts";
import type { QueueHandler } from "./job_worker.ts";
import { laneKeyFor } from "../target_ref.ts";
import { ulid } from "../ulid.ts";
import { chatCalls } from "./chat_calls.ts";
import type { DeliveryContext } from "./context.ts";
import { abandonDigest, closeDigest, dueForClose } from "./digest.ts";
import type { HeldLane, Step } from "./lane_runner.ts";
import { decide } from "./retry_policy.ts";

const QUEUE_ATTEMPTS = 10;

/** A close entry's id: `<ulid>-close_<kind>_<hash>` for the digest `<kind>-<hash>`. */
const CLOSE_ENTRY = /^[0-9A-HJKMNP-TV-Z]{26}-close_(burst|quiet)_([0-9a-f]{24})$/;

/** The lane entry id of the close of `digestId`, queued at `now`. */
function closeEntryId(digestId: string, now: number): string {
  return `${ulid(now)}-close_${digestId.replace("-", "_")}`;
}

/** The digest a lane entry closes, or null when the entry is a unit's. */
export function digestClosedBy(entryId: string): string | null {
  const match = CLOSE_ENTRY.exec(entryId);
  return match ? `${match[1]}-${match[2]}` : null;
}

/** Waits until a lane of this process has worked the entry `entryId`, at most `boundMs`. */
type EntryWait = (entryId: string, boundMs: number) => Promise<void>;

/** Whether the lane `lane` holds a close of `digestId` (left by an earlier version). */
async function closeInLane(ctx: DeliveryContext, lane: string, digestId: string) {
  for await (const entry of listLaneEntries(ctx.kv, lane)) {
    if (digestClosedBy(entry.value.logId) === digestId) return true;
  }
  return false;
}

/**
 * Puts the close of the digest `first` (as its caller read it) in its target's lane, unless the
 * digest is closed or its close was queued already (`closeQueuedAt`, set in the same commit: so
 * a close is queued once, by the job or the sweep, however many instances try). The digest is
 * read again only when the commit found it changed. With `lookInLane`, a close entry already
 * in the lane (from a version that did not mark digests) is only marked. Answers the id of the
 * entry this call appended, or null.
 */
async function queueClose(
  ctx: DeliveryContext,
  first: KvEntry<DigestRecord>,
  lookInLane: boolean,
): Promise<string | null> {
  const digestId = first.value.id;
  let read: KvEntryMaybe<DigestRecord> = first;
  for (let attempt = 0; attempt < QUEUE_ATTEMPTS; attempt++) {
    if (attempt > 0) read = await getDigestEntry(ctx.kv, digestId);
    const digest = read.value;
    if (!digest || digest.closed || digest.closeQueuedAt !== undefined) return null;
    const lane = laneKeyFor(digest.target);
    const entry: LaneEntry | null = lookInLane && await closeInLane(ctx, lane, digestId)
      ? null
      : { logId: closeEntryId(digestId, ctx.now()), failures: 0 };
    const queued = await queueDigestClose(
      ctx.kv,
      read as KvEntry<DigestRecord>,
      lane,
      entry,
      ctx.now(),
    );
    if (queued) return entry?.logId ?? null;
  }
  throw new Error(`digest ${digestId}: it or its lane kept changing`);
}

/**
 * The `digest_close` job handler: when the digest's window has ended, puts its close in its
 * target's lane and waits for it (see the module comment); a job that comes early is queued
 * again for the rest of the window.
 */
export function digestCloseHandler(ctx: DeliveryContext, worked: EntryWait): QueueHandler {
  return async (message) => {
    if (!isDigestCloseJob(message)) {
      ctx.log.error("malformed digest_close job dropped", { message });
      return;
    }
    const due = await dueForClose(ctx, message.digestId);
    if (!due) return;
    const entryId = await queueClose(ctx, due, false);
    if (entryId) await worked(entryId, ctx.holdMs);
  };
}

/** Most digests one sweep looks at; the next sweep goes on from there. */
const DIGEST_SCAN_LIMIT = 200;
/** Time from the end of one pass over the digests to the start of the next. */
const DIGEST_PASS_REST_MS = 60 * 60_000;

/**
 * Where the sweep of one instance stands in its passes over the digests: the last id it looked
 * at (null: the pass starts from the first), and when the next pass may start.
 */
export interface DigestScan {
  after: string | null;
  restUntil: number;
}

/** A pass from the first digest, due at the next sweep (the first of this process). */
export function newDigestScan(): DigestScan {
  return { after: null, restUntil: 0 };
}

/**
 * The sweep's safety net for digests: queues the close of each open digest whose window ended
 * more than `stallMs` ago and whose close was never queued. Every digest this version opens has
 * its closing job queued in the commit that opens it, and that job or this net marks it
 * (`closeQueuedAt`) when the close goes into the lane, so what is left to catch is rare: digests
 * an older version left open (it closed them through a KV queue no code listens to any more;
 * they are kept a week after their window) and a closing job lost for good. So the net does not
 * read digests on every sweep. It makes passes over them, {@link DIGEST_SCAN_LIMIT} digests per
 * sweep from where `scan` says until every digest was looked at: the first pass on the first
 * sweep this process leads (what an upgrade left is closed at once), the next one
 * {@link DIGEST_PASS_REST_MS} after a pass ends (what an older instance still running during a
 * rolling upgrade leaves, or a lost job, waits at most that long). In between a sweep costs no
 * read. Each digest is read once, by the pass's list (read again only when the commit that
 * queues its close finds it changed). Answers how many closes it queued.
 */
export async function closeStrandedDigests(
  ctx: DeliveryContext,
  scan: DigestScan,
  stallMs: number,
): Promise<number> {
  if (scan.after === null && ctx.now() < scan.restUntil) return 0;
  const digests = await listDigestsAfter(ctx.kv, scan.after, DIGEST_SCAN_LIMIT);
  if (digests.length < DIGEST_SCAN_LIMIT) {
    Object.assign(scan, { after: null, restUntil: ctx.now() + DIGEST_PASS_REST_MS });
  } else {
    scan.after = digests.at(-1)!.value.id;
  }
  let queued = 0;
  for (const entry of digests) {
    const digest = entry.value;
    if (digest.closed || digest.closeQueuedAt !== undefined) continue;
    if (digest.closesAt > ctx.now() - stallMs) continue; // its job is still to come
    if (await queueClose(ctx, entry, true)) queued++;
  }
  return queued;
}

/**
 * One step of a lane whose head is the close of `digestId`: closes the digest through the
 * rate limiter; a close the platform did not take now waits in the lane as a unit would (the
 * retry policy's backoff and bounds), and one past them is given up, logged.
 */
export async function stepDigestClose(
  ctx: DeliveryContext,
  held: HeldLane,
  head: KvEntry<LaneEntry>,
  digestId: string,
): Promise<Step> {
  const result = await closeDigest(ctx, digestId, (digest) => {
    const adapter = ctx.adapters.get(digest.target.platform);
    if (!adapter) return null;
    if (!held.target) {
      held.target = digest.target;
      if (held.inherited) adapter.adopt(held.target, held.inherited);
    }
    return chatCalls(ctx, adapter, false);
  });
  const decision = result &&
    decide(result, head.value, ctx.backoffMs, ctx.now(), ctx.rateLimitBound);
  if (result && decision?.status === "retrying") {
    const { rateLimits, rateLimitedSince } = decision;
    await keepLaneEntry(ctx.kv, head, {
      logId: head.value.logId,
      failures: decision.failures,
      ...(rateLimits === undefined ? {} : { rateLimits, rateLimitedSince }),
    });
    return { kind: "wait", delayMs: decision.delayMs ?? 0 };
  }
  if (result) await abandonDigest(ctx, digestId, result.error ?? "gave up");
  await dropLaneEntry(ctx.kv, head);
  held.worked?.(head.value.logId);
  return { kind: "next" };
}
