/**
 * Jobs: the durable work of the job worker (lib/delivery/job_worker.ts), kept in the store itself so
 * delivery needs no KV queue (KV Connect and PostgreSQL have none).
 *
 * A job waits under `["jobs", dueAt, jobId]`, so the store lists jobs in due order. Claiming
 * one is a commit that checks its entry, deletes it and writes it again under
 * `["jobs", leaseUntil, jobId]` with its owner and one more attempt: two workers never both
 * claim it, and a job whose owner dies becomes due again when the lease runs out, for any
 * worker to take over. Finishing deletes it; a failed attempt moves it to its next due time;
 * after its last attempt it moves to its dead-letter key with the reason.
 *
 * Every commit that adds a job also wakes the watchers of `["jobs_wake"]`: workers watch that
 * key, so they wake at once for jobs added in their process and, where the backend notifies
 * across processes, for other instances' jobs; a short poll covers the rest. On a backend with
 * `notify` (PostgreSQL: the commit's NOTIFY) the key is signalled, not written, so concurrent
 * commits that add jobs share no row and no lock; elsewhere (Deno KV, which notifies watchers
 * of its own commits) the commit writes the key (one small blind write).
 */
import type { AtomicOperation, Kv, KvEntry, KvKey } from "../backend/types.ts";
import { monotonicUlids } from "../../ulid.ts";
import { MAX_CHECKS_PER_COMMIT } from "../commit_limits.ts";
import { deadJobKey, jobKey, jobsPrefix, jobsWakeKey } from "../keys.ts";

/** What a job asks for: a plain object with a `type` naming its handler. */
export interface JobMessage {
  type: string;
  [field: string]: unknown;
}

/** The value of a job's entry. */
export interface JobRecord {
  /** A ULID: unique, and ordered by when the job was added. */
  id: string;
  message: JobMessage;
  /** Attempts started so far (each claim starts one). */
  attempts: number;
  /** The worker holding the job while it is claimed. */
  owner?: string;
  /** Why the previous attempt failed. */
  lastError?: string;
  /** Where the job goes after its last attempt (default `["jobs_dead", id]`). */
  deadKey?: KvKey;
}

/** A job that failed its last attempt, as kept at its dead-letter key. */
export interface DeadJob {
  id: string;
  message: JobMessage;
  attempts: number;
  reason: string;
  /** Unix ms. */
  diedAt: number;
}

/** Largest job record, serialized (a deliver job naming 64 events needs about 2 KB). */
const MAX_JOB_BYTES = 16 * 1024;
/** Longest failure reason kept with a job. */
const MAX_REASON_LENGTH = 500;
/** The longest a job is ever delayed. */
const MAX_JOB_DELAY_MS = 30 * 24 * 60 * 60 * 1000;
/** How long a dead job stays at `["jobs_dead", id]` for operators to see. */
export const DEAD_JOB_KEEP_MS = 14 * 24 * 60 * 60 * 1000;

const nextJobId = monotonicUlids();

/** A delay as whole milliseconds within 0..{@link MAX_JOB_DELAY_MS} (0 for NaN). */
function jobDelay(delayMs: number): number {
  if (Number.isNaN(delayMs)) return 0;
  return Math.min(MAX_JOB_DELAY_MS, Math.max(0, Math.ceil(delayMs)));
}

/**
 * When and where a new job goes. A delay counts from this process's clock, as the job worker
 * reads it (never from a caller's clock, which tests shift).
 */
interface AddJobOptions {
  /** How long from now the job is due (default 0). */
  delayMs?: number;
  /** Where the job goes after its last attempt (default `["jobs_dead", id]`). */
  deadKey?: KvKey;
}

/**
 * Adds to `op` a new job carrying `message`, due `delayMs` from now, and the wake-up of
 * the workers watching for jobs. Throws when the job is larger than {@link MAX_JOB_BYTES}.
 */
export function addJob<Message extends { type: string }>(
  op: AtomicOperation,
  message: Message,
  options: AddJobOptions = {},
): AtomicOperation {
  const now = Date.now();
  const dueAt = now + jobDelay(options.delayMs ?? 0);
  const record: JobRecord = { id: nextJobId(now), message: message as JobMessage, attempts: 0 };
  if (options.deadKey) record.deadKey = options.deadKey;
  if (JSON.stringify(record).length > MAX_JOB_BYTES) {
    throw new RangeError(`A ${message.type} job is larger than ${MAX_JOB_BYTES} bytes`);
  }
  op.set(jobKey(dueAt, record.id), record);
  return op.notify ? op.notify(jobsWakeKey()) : op.set(jobsWakeKey(), dueAt);
}

/** Adds one job in a commit of its own (see {@link addJob}). */
export async function putJob<Message extends { type: string }>(
  kv: Kv,
  message: Message,
  options: AddJobOptions = {},
): Promise<void> {
  const result = await addJob(kv.atomic(), message, options).commit();
  if (!result.ok) throw new Error("Cannot add a job: a commit without checks failed");
}

/** The due time of a job entry (Unix ms): when it is due, or when its claim's lease ends. */
function dueAtOf(entry: KvEntry<JobRecord>): number {
  return Number(entry.key[1]);
}

/**
 * The first `limit` jobs due at `now` (claimed ones whose lease ran out included), in due
 * order, and when the next job after them is due (null when none is known).
 */
export async function listDueJobs(
  kv: Kv,
  now: number,
  limit: number,
): Promise<{ due: KvEntry<JobRecord>[]; nextDueAt: number | null }> {
  const due: KvEntry<JobRecord>[] = [];
  for await (const entry of kv.list<JobRecord>({ prefix: jobsPrefix() }, { limit: limit + 1 })) {
    if (dueAtOf(entry) > now) return { due, nextDueAt: dueAtOf(entry) };
    due.push(entry);
  }
  return { due: due.slice(0, limit), nextDueAt: due.length > limit ? now : null };
}

/** Every job, due or claimed, in due order (at most `limit`). */
export async function listJobs(kv: Kv, limit = 1_000): Promise<KvEntry<JobRecord>[]> {
  return await Array.fromAsync(kv.list<JobRecord>({ prefix: jobsPrefix() }, { limit }));
}

/**
 * Moves a job to `dueAt` with `value`, checked against the entry it was read as; the new
 * entry, or null when the job changed meanwhile (another worker claimed or finished it).
 */
async function moveJob(
  kv: Kv,
  entry: KvEntry<JobRecord>,
  dueAt: number,
  value: JobRecord,
): Promise<KvEntry<JobRecord> | null> {
  const key = jobKey(dueAt, value.id);
  const op = kv.atomic().check(entry);
  if (dueAtOf(entry) !== dueAt) op.delete(entry.key);
  const result = await op.set(key, value).commit();
  return result.ok ? { key, value, versionstamp: result.versionstamp } : null;
}

/**
 * Claims a due job for `owner` until `now + leaseMs`, counting one more attempt; null when
 * another worker claimed (or finished) it first.
 */
export async function claimJob(
  kv: Kv,
  entry: KvEntry<JobRecord>,
  owner: string,
  now: number,
  leaseMs: number,
): Promise<KvEntry<JobRecord> | null> {
  return (await claimJobs(kv, [entry], owner, now, leaseMs))?.[0] ?? null;
}

/**
 * Claims several due jobs in one commit (at most {@link MAX_CHECKS_PER_COMMIT}: one check each),
 * as {@link claimJob} does; null when any of them was claimed or finished by another worker
 * first (then none is claimed).
 */
export async function claimJobs(
  kv: Kv,
  entries: readonly KvEntry<JobRecord>[],
  owner: string,
  now: number,
  leaseMs: number,
): Promise<KvEntry<JobRecord>[] | null> {
  if (entries.length > MAX_CHECKS_PER_COMMIT) {
    throw new RangeError(`At most ${MAX_CHECKS_PER_COMMIT} jobs are claimed in one commit`);
  }
  const leaseUntil = Math.floor(now + leaseMs);
  const op = kv.atomic();
  const claimed = entries.map((entry) => {
    const value: JobRecord = { ...entry.value, owner, attempts: entry.value.attempts + 1 };
    const key = jobKey(leaseUntil, value.id);
    op.check(entry);
    if (dueAtOf(entry) !== leaseUntil) op.delete(entry.key);
    op.set(key, value);
    return { key, value };
  });
  const result = await op.commit();
  return result.ok ? claimed.map((job) => ({ ...job, versionstamp: result.versionstamp })) : null;
}

/** Extends a claim to `now + leaseMs`; null when the job changed hands. */
export function renewJob(
  kv: Kv,
  claimed: KvEntry<JobRecord>,
  now: number,
  leaseMs: number,
): Promise<KvEntry<JobRecord> | null> {
  return moveJob(kv, claimed, Math.floor(now + leaseMs), claimed.value);
}

/** A job record without its claim. */
function unclaimed(record: JobRecord): JobRecord {
  const { owner: _owner, ...rest } = record;
  return rest;
}

/**
 * Removes finished jobs in one commit (at most {@link MAX_CHECKS_PER_COMMIT}); false when one of
 * them changed hands (its lease ran out meanwhile), and then none is removed.
 */
export async function finishJobs(
  kv: Kv,
  claimed: readonly KvEntry<JobRecord>[],
): Promise<boolean> {
  if (claimed.length > MAX_CHECKS_PER_COMMIT) {
    throw new RangeError(`At most ${MAX_CHECKS_PER_COMMIT} jobs are finished in one commit`);
  }
  const op = kv.atomic();
  for (const entry of claimed) op.check(entry).delete(entry.key);
  return (await op.commit()).ok;
}

/** Makes a failed job due again at `dueAt`, keeping the reason; false when it changed hands. */
export async function retryJob(
  kv: Kv,
  claimed: KvEntry<JobRecord>,
  dueAt: number,
  reason: string,
): Promise<boolean> {
  const value = { ...unclaimed(claimed.value), lastError: reason.slice(0, MAX_REASON_LENGTH) };
  return (await moveJob(kv, claimed, Math.floor(dueAt), value)) !== null;
}

/**
 * Moves a job that failed its last attempt to its dead-letter key with `reason` (a record at
 * the default `["jobs_dead", id]` is kept {@link DEAD_JOB_KEEP_MS}); false when it changed hands.
 */
export async function buryJob(
  kv: Kv,
  claimed: KvEntry<JobRecord>,
  reason: string,
  now: number,
): Promise<boolean> {
  const { id, message, attempts, deadKey } = claimed.value;
  const dead: DeadJob = {
    id,
    message,
    attempts,
    reason: reason.slice(0, MAX_REASON_LENGTH),
    diedAt: now,
  };
  const op = kv.atomic().check(claimed).delete(claimed.key);
  if (deadKey) op.set(deadKey, dead);
  else op.set(deadJobKey(id), dead, { expireIn: DEAD_JOB_KEEP_MS });
  return (await op.commit()).ok;
}

/** A dead job kept at `["jobs_dead", id]`, or null. */
export async function getDeadJob(kv: Kv, jobId: string): Promise<DeadJob | null> {
  return (await kv.get<DeadJob>(deadJobKey(jobId))).value;
}

/**
 * A stream that yields whenever a job is added by any instance (the wake-up key's writes on
 * Deno KV, the commit's notification on PostgreSQL); it ends when the store closes.
 */
export function watchJobWakeUps(kv: Kv): ReadableStream<unknown> {
  return kv.watch([jobsWakeKey()]);
}
