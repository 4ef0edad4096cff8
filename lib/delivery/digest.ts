/**
 * Digests (docs/noise.md). A unit of a route with `digest` (or within its quiet hours) joins
 * the lane's open window for the route: the first `threshold` units of a burst window are sent
 * as usual, the others are gathered into the window's digest. The digest message is posted by
 * the first gathered unit, edited as more arrive (at most once per {@link EDIT_INTERVAL_MS}),
 * and given its final count when the window ends (the closing job puts the close in the lane,
 * `digest_close.ts`). Quiet-hours digests are posted only when the hours end. All of it runs in
 * the lane, one step at a time, each platform call reserved from the rate limiter
 * (`chat_calls.ts`), and every step is a checked KV commit, so a unit tried again neither
 * counts twice nor posts twice.
 * Every post and edit of a digest goes through the target guard (`throughGuard`): a digest
 * whose target its group lost (or whose group was deleted, even when a new group has its id)
 * sends nothing, and the refusal is
 * logged (and recorded in the send log of the unit whose attempt it was). A digest belongs to
 * the group's internal id: a group that takes a deleted group's id opens its own windows.
 */
import type { Kv, KvEntry } from "../store/backend/types.ts";
import { sha256Hex } from "../crypto.ts";
import type { Logger } from "../log.ts";
import { editAsSendResult } from "../platform/edit_result.ts";
import type { SendResult } from "../platform/send_result.ts";
import {
  commitJoin,
  DIGEST_ITEMS,
  type DigestItem,
  type DigestKind,
  type DigestRecord,
  getDigestEntry,
  readWindow,
  requeueDigestClose,
  updateDigest,
} from "../store/delivery/digests.ts";
import { historyIdOf, type SendLog } from "../store/delivery/send_logs.ts";
import { laneKeyFor } from "../target_ref.ts";
import type { Route } from "../types.ts";
import type { ChatCalls } from "./chat_calls.ts";
import { renderDigest } from "./digest_message.ts";
import type { QuietPeriod } from "./quiet_hours.ts";
import {
  asSendResult,
  type GuardedResult,
  type TargetGuard,
  throughGuard,
} from "./target_guard.ts";

/** A digest message is edited at most this often while its window is open. */
const EDIT_INTERVAL_MS = 2_000;
const ATTEMPTS = 10;

/** What noise control needs from the delivery worker. */
export interface NoiseDeps {
  kv: Kv;
  log: Logger;
  /** Target ownership: every platform call of noise control is checked by it first. */
  targets: TargetGuard;
  now(): number;
}

/** Where a unit joins: a burst window of the route's digest, or a quiet period. */
type WindowSpec =
  | { kind: "burst"; windowMs: number; threshold: number }
  | { kind: "quiet"; period: QuietPeriod };

/** A digest's id: its kind, group (by internal id), route, lane and opening time, hashed. */
async function digestIdFor(kind: DigestKind, log: SendLog, lane: string, opensAt: number) {
  const identity = JSON.stringify([kind, historyIdOf(log), log.routeId, lane, opensAt]);
  return `${kind}-${(await sha256Hex(identity)).slice(0, 24)}`;
}

/** Whether `digest` is the open window `log` joins (of its group, not of an earlier one). */
async function isCurrent(
  digest: DigestRecord | null | undefined,
  spec: WindowSpec,
  log: SendLog,
  lane: string,
  now: number,
) {
  if (!digest) return false;
  const open = spec.kind === "burst"
    ? now < digest.closesAt
    : digest.opensAt === spec.period.opensAt;
  return open && digest.id === await digestIdFor(spec.kind, log, lane, digest.opensAt);
}

async function freshDigest(
  spec: WindowSpec,
  log: SendLog,
  route: Route,
  lane: string,
  now: number,
): Promise<DigestRecord> {
  const opensAt = spec.kind === "burst" ? now : spec.period.opensAt;
  return {
    id: await digestIdFor(spec.kind, log, lane, opensAt),
    kind: spec.kind,
    groupId: log.groupId,
    ...(log.groupInternalId ? { groupInternalId: log.groupInternalId } : {}),
    routeId: log.routeId,
    routeName: route.name,
    target: log.target,
    opensAt,
    closesAt: spec.kind === "burst" ? now + spec.windowMs : spec.period.closesAt,
    direct: 0,
    count: 0,
    items: [],
    shownCount: 0,
    closed: false,
  };
}

/**
 * Adds the unit `log` to its window: answers `direct` (send it as usual) or the id of the
 * digest it was gathered into.
 */
export async function joinWindow(
  deps: NoiseDeps,
  spec: WindowSpec,
  log: SendLog,
  route: Route,
  item: DigestItem,
): Promise<{ mode: "direct" } | { mode: "digested"; digestId: string }> {
  const lane = laneKeyFor(log.target);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const now = deps.now();
    const read = await readWindow(deps.kv, spec.kind, log.groupId, log.routeId, lane);
    const opens = !(await isCurrent(read.digest?.value, spec, log, lane, now));
    const base = opens ? await freshDigest(spec, log, route, lane, now) : read.digest!.value!;
    const threshold = spec.kind === "burst" ? spec.threshold : 0;
    const direct = base.direct < threshold;
    const next: DigestRecord = direct ? { ...base, direct: base.direct + 1 } : {
      ...base,
      count: base.count + 1,
      items: base.items.length < DIGEST_ITEMS ? [...base.items, item] : base.items,
    };
    const mode = direct ? "direct" : "digested";
    if (await commitJoin(deps.kv, { lane, read, next, logId: log.id, mode, opens, now })) {
      return direct ? { mode: "direct" } : { mode: "digested", digestId: next.id };
    }
  }
  throw new Error("the digest window kept changing");
}

/** Saves `patch` over the digest's current state, retrying on concurrent changes. */
async function patchDigest(
  deps: NoiseDeps,
  digestId: string,
  patch: (current: DigestRecord) => DigestRecord,
): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await getDigestEntry(deps.kv, digestId);
    if (!entry.value) return;
    const next = patch(entry.value);
    if (await updateDigest(deps.kv, entry as KvEntry<DigestRecord>, next, deps.now())) return;
  }
}

function shown(messageId: string | undefined, count: number, now: number) {
  return (current: DigestRecord): DigestRecord => ({
    ...current,
    ...(messageId === undefined ? {} : { messageId: current.messageId ?? messageId }),
    shownCount: Math.max(current.shownCount, count),
    shownAt: now,
  });
}

/** Logs a digest call the target guard refused; nothing was sent. */
function noteRefusal(deps: NoiseDeps, digest: DigestRecord, error: string) {
  deps.log.warn("digest not sent", {
    digestId: digest.id,
    groupId: digest.groupId,
    routeId: digest.routeId,
    error,
  });
}

/**
 * Gives up a digest whose close the platform kept refusing past the retry bounds: logged as not
 * sent and marked closed, so nothing treats it as open any more.
 */
export async function abandonDigest(
  deps: NoiseDeps,
  digestId: string,
  error: string,
): Promise<void> {
  const digest = (await getDigestEntry(deps.kv, digestId)).value;
  if (!digest || digest.closed) return;
  noteRefusal(deps, digest, error);
  await patchDigest(deps, digestId, (current) => ({ ...current, closed: true }));
}

/** A guarded call's result for the unit; a refusal is logged too. */
function unitResult(deps: NoiseDeps, digest: DigestRecord, result: GuardedResult): SendResult {
  if (result.kind === "refused") noteRefusal(deps, digest, result.error);
  return asSendResult(result);
}

/**
 * Brings the digest's message up to date for a unit gathered into it, from the unit's lane:
 * posts it when it has no message yet, edits it when it shows fewer events than it has (and
 * was not edited within {@link EDIT_INTERVAL_MS}). A quiet-hours digest is only held. The
 * result stands for the unit's attempt and carries the digest id.
 */
export async function syncDigest(
  deps: NoiseDeps,
  digestId: string,
  calls: ChatCalls,
): Promise<SendResult> {
  const entry = await getDigestEntry(deps.kv, digestId);
  const digest = entry.value;
  if (!digest) return { kind: "rejected", httpStatus: 410, error: "digest expired" };
  if (digest.kind === "quiet" && !digest.closed) {
    return { kind: "sent", httpStatus: 202, digestId };
  }
  const now = deps.now();
  if (digest.messageId === undefined) {
    const result = unitResult(
      deps,
      digest,
      await throughGuard(
        deps.targets,
        digest,
        () => calls.post(digest.target, renderDigest(digest), digest.id),
      ),
    );
    if (result.kind !== "sent") return result;
    await patchDigest(deps, digestId, shown(result.messageId, digest.count, now));
    return { ...result, digestId };
  }
  const stale = digest.shownCount < digest.count &&
    (digest.closed || digest.shownAt === undefined || now - digest.shownAt >= EDIT_INTERVAL_MS);
  if (!stale) return { kind: "sent", httpStatus: 200, messageId: digest.messageId, digestId };
  const result = unitResult(
    deps,
    digest,
    await editDigest(deps.targets, calls, digest, digest.messageId, renderDigest(digest)),
  );
  if (result.kind !== "sent") return result;
  await patchDigest(deps, digestId, shown(undefined, digest.count, now));
  return { kind: "sent", httpStatus: result.httpStatus, messageId: digest.messageId, digestId };
}

/** Replaces the digest's message `messageId` with `body`, through the guard and the limiter. */
async function editDigest(
  targets: TargetGuard,
  calls: ChatCalls,
  digest: DigestRecord,
  messageId: string,
  body: unknown,
): Promise<GuardedResult> {
  return await throughGuard(
    targets,
    digest,
    async () => editAsSendResult(await calls.edit(digest.target, messageId, body)),
  );
}

/**
 * The digest whose close is due, as read (with its versionstamp, for a commit checked against
 * it), or null: when there is nothing to close, or when its window has not ended yet (then its
 * closing job is queued again for the rest of the window).
 */
export async function dueForClose(
  deps: NoiseDeps,
  digestId: string,
): Promise<KvEntry<DigestRecord> | null> {
  const entry = await getDigestEntry(deps.kv, digestId);
  const digest = entry.value;
  if (!digest || digest.closed) return null;
  const now = deps.now();
  if (now < digest.closesAt) {
    await requeueDigestClose(deps.kv, digestId, digest.closesAt - now);
    return null;
  }
  return entry as KvEntry<DigestRecord>;
}

/**
 * Closes a digest from its lane once {@link dueForClose} said its window has ended: the message is written with the
 * final count (a quiet-hours digest is posted now) through `calls`, and the digest is marked
 * closed. Answers the platform's answer when the close must be tried again (a network error, a
 * 5xx, a rate limit), else null. A digest the target guard refuses is closed unsent, and logged.
 */
export async function closeDigest(
  deps: NoiseDeps,
  digestId: string,
  calls: (digest: DigestRecord) => ChatCalls | null,
): Promise<Extract<SendResult, { kind: "rate_limited" | "retryable" }> | null> {
  const entry = await getDigestEntry(deps.kv, digestId);
  const digest = entry.value;
  if (!digest || digest.closed) return null;
  const now = deps.now();
  const closeUnsent = (reason: string) => {
    noteRefusal(deps, digest, reason);
    return patchDigest(deps, digestId, (current) => ({ ...current, closed: true }));
  };
  if (digest.count === 0) {
    await patchDigest(deps, digestId, (current) => ({ ...current, closed: true }));
    return null;
  }
  const through = calls(digest);
  if (!through) {
    await closeUnsent(`unknown platform "${digest.target.platform}"`);
    return null;
  }
  const final: DigestRecord = { ...digest, closed: true };
  const result = digest.messageId === undefined
    ? await throughGuard(
      deps.targets,
      digest,
      () => through.post(digest.target, renderDigest(final), digest.id),
    )
    : await editDigest(deps.targets, through, digest, digest.messageId, renderDigest(final));
  if (result.kind === "refused") {
    await closeUnsent(result.error);
    return null;
  }
  if (result.kind === "rejected") {
    deps.log.warn("digest not closed", { digestId, error: result.error });
  } else if (result.kind !== "sent") {
    return result;
  }
  const messageId = result.kind === "sent" ? result.messageId : undefined;
  await patchDigest(deps, digestId, (current) => ({
    ...shown(messageId, digest.count, now)(current),
    closed: true,
  }));
  return null;
}
