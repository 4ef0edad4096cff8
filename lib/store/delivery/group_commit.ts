/**
 * Group commit of accepted events. SQLite takes one writer at a time, so the ingress commits
 * fewer, larger transactions: events accepted concurrently within a short window (default
 * 1 ms), or while the previous batch is committing, are written together in one atomic
 * commit that holds, for each, everything `saveEvent` commits alone (record, payload, dedup
 * mark, nonce, pending fan-out mark), and one deliver job naming all the batch's events
 * (lib/store/delivery/fan_out_jobs.ts): the delivery worker then fans the batch out in one job, which
 * costs the store's single writer one job instead of one per event. Each caller is
 * answered only after the commit that holds its event.
 *
 * A batch stays within the per-commit limits (lib/store/commit_limits.ts: 10 checks on a
 * `denokv` server; 1,000 mutations, 800 KiB of mutations, 80 KiB of keys on Deno KV): at most
 * {@link MAX_BATCH_EVENTS} events, {@link MAX_CHECKS_PER_COMMIT} dedup and nonce checks, and
 * bounded value and key bytes. An event whose payload needs more than one chunk commits alone, as before.
 *
 * De-duplication stays exact: an event whose dedup or nonce mark is already in the batch
 * waits for the batch and then commits alone, where it finds the first one's mark (one new,
 * one duplicate). When a batch's commit fails (a mark already stored, or an error), every
 * event of it is committed alone, in order, so none is lost or acknowledged without its
 * commit; an event whose own commit fails too is rejected (the ingress answers 503 or 500 and the
 * sender retries).
 */
import type { Kv, KvKey } from "../backend/types.ts";
import {
  addEventWrites,
  type NewEvent,
  noteCommitted,
  type PreparedEvent,
  prepareEvent,
  type SaveOutcome,
  savePreparedEvent,
} from "./events.ts";
import { MAX_CHECKS_PER_COMMIT } from "../commit_limits.ts";
import { addDeliverJob } from "./fan_out_jobs.ts";

/** The most events one batch holds (each has at most two checks and five mutations; one job). */
export const MAX_BATCH_EVENTS = 32;
/** Bytes of values one batch may hold (KV allows 800 KiB of mutations per commit). */
const BATCH_VALUE_BYTES = 600_000;
/** Bytes of keys one batch may hold (KV allows 80 KiB per commit). */
const BATCH_KEY_BYTES = 60_000;
/** Key bytes counted for an event's record, chunk, job and fan-out keys. */
const FIXED_KEY_BYTES = 400;
/** Value bytes counted for an event's marks, job and record besides its payload and meta. */
const FIXED_VALUE_BYTES = 400;

/** How a group commit batches. */
interface GroupCommitOptions {
  /** How long the first waiting event waits for others, in milliseconds (default 1). */
  windowMs?: number;
  /** The most events in one batch (default and maximum {@link MAX_BATCH_EVENTS}). */
  maxEvents?: number;
}

/** What a group commit has done so far. */
export interface GroupCommitStats {
  /** Commits of batches of more than one event. */
  batches: number;
  /** Events those batches held. */
  batchedEvents: number;
  /** Commits of one event on its own (alone in its window, or a fallback). */
  single: number;
  /** Milliseconds spent waiting for commits, batches and single ones together. */
  commitMs: number;
}

interface Waiting {
  prepared: PreparedEvent;
  valueBytes: number;
  keyBytes: number;
  resolve: (outcome: SaveOutcome) => void;
  reject: (error: unknown) => void;
}

const keyBytes = (key: KvKey | null) =>
  key === null ? 0 : key.reduce<number>((sum, part) => sum + String(part).length + 4, 0);

const markId = (key: KvKey | null) => key === null ? null : JSON.stringify(key);

/** Commits concurrently accepted events of one KV store together. */
export class GroupCommit {
  readonly #kv: Kv;
  readonly #windowMs: number;
  readonly #maxEvents: number;
  #waiting: Waiting[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #committing = false;
  readonly #stats: GroupCommitStats = { batches: 0, batchedEvents: 0, single: 0, commitMs: 0 };

  /** A group commit over `kv`. */
  constructor(kv: Kv, options: GroupCommitOptions = {}) {
    this.#kv = kv;
    this.#windowMs = options.windowMs ?? 1;
    this.#maxEvents = Math.max(
      1,
      Math.min(options.maxEvents ?? MAX_BATCH_EVENTS, MAX_BATCH_EVENTS),
    );
  }

  /** What this group commit has done so far. */
  stats(): GroupCommitStats {
    return { ...this.#stats };
  }

  /**
   * Accepts an event as `saveEvent` does, committed with the others waiting at the time.
   * Only the prepared (compressed) event and the parsed payload it carries for the fan-out
   * wait for the commit: nothing here keeps `event`, and so its raw body, alive meanwhile.
   */
  save(event: NewEvent): Promise<SaveOutcome> {
    return prepareEvent(event).then((prepared) => this.#join(prepared));
  }

  async #join(prepared: PreparedEvent): Promise<SaveOutcome> {
    if (prepared.chunks.length > 1) {
      return await savePreparedEvent(this.#kv, prepared);
    }
    return await new Promise<SaveOutcome>((resolve, reject) => {
      this.#waiting.push({
        prepared,
        valueBytes: prepared.meta.storedBytes + prepared.metaChars + FIXED_VALUE_BYTES,
        keyBytes: keyBytes(prepared.dedup) + keyBytes(prepared.nonceMark) + FIXED_KEY_BYTES,
        resolve,
        reject,
      });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#committing) return;
    if (this.#waiting.length >= this.#maxEvents) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#drain();
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#drain();
      }, this.#windowMs);
    }
  }

  async #drain(): Promise<void> {
    if (this.#committing) return;
    this.#committing = true;
    try {
      while (this.#waiting.length > 0) {
        const { batch, later } = this.#takeBatch();
        await this.#commit(batch);
        for (const waiting of later) await this.#commitAlone(waiting);
      }
    } finally {
      this.#committing = false;
    }
  }

  /** The next batch, within the limits, and the events whose marks it already holds. */
  #takeBatch(): { batch: Waiting[]; later: Waiting[] } {
    const batch: Waiting[] = [];
    const later: Waiting[] = [];
    const marks = new Set<string>();
    let valueBytes = 0;
    let keyBytesTaken = 0;
    let taken = 0;
    for (const waiting of this.#waiting) {
      const ids = [markId(waiting.prepared.dedup), markId(waiting.prepared.nonceMark)]
        .filter((id): id is string => id !== null);
      const full = batch.length >= this.#maxEvents ||
        (batch.length > 0 &&
          (valueBytes + waiting.valueBytes > BATCH_VALUE_BYTES ||
            keyBytesTaken + waiting.keyBytes > BATCH_KEY_BYTES ||
            marks.size + ids.length > MAX_CHECKS_PER_COMMIT));
      if (full) break;
      taken++;
      if (ids.some((id) => marks.has(id))) {
        later.push(waiting);
        continue;
      }
      for (const id of ids) marks.add(id);
      batch.push(waiting);
      valueBytes += waiting.valueBytes;
      keyBytesTaken += waiting.keyBytes;
    }
    this.#waiting = this.#waiting.slice(taken);
    return { batch, later };
  }

  async #commit(batch: Waiting[]): Promise<void> {
    if (batch.length === 0) return;
    if (batch.length === 1) return await this.#commitAlone(batch[0]);
    let committed = false;
    const started = performance.now();
    try {
      const op = this.#kv.atomic();
      for (const { prepared } of batch) addEventWrites(op, prepared);
      addDeliverJob(op, batch.map(({ prepared }) => prepared.eventId));
      committed = (await op.commit()).ok;
    } catch {
      committed = false;
    }
    this.#stats.commitMs += performance.now() - started;
    this.#stats.batches++;
    this.#stats.batchedEvents += batch.length;
    if (committed) {
      for (const { prepared, resolve } of batch) {
        noteCommitted(this.#kv, prepared);
        resolve({ status: "accepted", eventId: prepared.eventId });
      }
      return;
    }
    for (const waiting of batch) await this.#commitAlone(waiting);
  }

  async #commitAlone({ prepared, resolve, reject }: Waiting): Promise<void> {
    const started = performance.now();
    try {
      resolve(await savePreparedEvent(this.#kv, prepared));
    } catch (error) {
      reject(error);
    }
    this.#stats.commitMs += performance.now() - started;
    this.#stats.single++;
  }
}

const groupCommits = new WeakMap<Kv, GroupCommit>();

function groupCommitOf(kv: Kv): GroupCommit {
  let group = groupCommits.get(kv);
  if (!group) {
    group = new GroupCommit(kv);
    groupCommits.set(kv, group);
  }
  return group;
}

/** Accepts an event through the group commit of `kv` (one per store, made on first use). */
export function saveEventGrouped(kv: Kv, event: NewEvent): Promise<SaveOutcome> {
  return groupCommitOf(kv).save(event);
}

/** What the group commit of `kv` has done so far. */
export function groupCommitStats(kv: Kv): GroupCommitStats {
  return groupCommitOf(kv).stats();
}
