/**
 * The job worker: claims due jobs (lib/store/delivery/jobs.ts) and runs each with the handler for its
 * message `type`, several at once. A job is claimed for a lease, renewed while its handler
 * runs; it is removed when the handler returns, made due again after a backoff when the
 * handler throws, and moved to its dead-letter key with the reason after its last attempt.
 *
 * The worker wakes when the `["jobs_wake"]` key it watches changes (every commit that adds a
 * job writes it), when one of its handlers ends, when the earliest known job falls due, and at
 * least every `pollMs` as the safety net (jobs of processes whose backend does not notify,
 * and leases that ran out). On shutdown it stops claiming and lets running handlers finish;
 * a job still running when the bound ends comes back when its lease runs out.
 */
import type { Kv, KvEntry } from "../store/backend/types.ts";
import type { Logger } from "../log.ts";
import {
  buryJob,
  claimJob,
  claimJobs,
  finishJobs,
  type JobMessage,
  type JobRecord,
  listDueJobs,
  renewJob,
  retryJob,
  watchJobWakeUps,
} from "../store/delivery/jobs.ts";
import { MAX_CHECKS_PER_COMMIT } from "../store/commit_limits.ts";
import { isPassingStoreError, retryTransient } from "../store/transient.ts";

/** A job's message: a plain object with a `type`. */
export type QueueMessage = JobMessage;

/** Handles one message type; throwing makes the worker run the job again after a backoff. */
export type QueueHandler = (message: QueueMessage) => Promise<void>;

/** A running worker. */
interface QueueWorker {
  /** Stops claiming jobs and waits (at most `timeoutMs`) for running handlers. */
  drain(timeoutMs: number): Promise<void>;
  /** How many handlers are running now. */
  inFlight(): number;
}

/** Job worker settings; all have defaults. */
interface QueueWorkerOptions {
  /** Most handlers running at once (default 64). */
  concurrency?: number;
  /** How long a claim holds a job before another worker may take it over (default 30 s). */
  leaseMs?: number;
  /** Longest sleep between looks at the jobs (default 1 s). */
  pollMs?: number;
  /** Attempts before a job is dead (default 8). */
  maxAttempts?: number;
  /** Wait before each retry, by attempt (the last repeats). */
  backoffMs?: readonly number[];
  now?: () => number;
}

const CONCURRENCY = 64;
const LEASE_MS = 30_000;
const POLL_MS = 1_000;
const MAX_ATTEMPTS = 8;
const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];
/** Shortest pause between two looks at the jobs while claims keep losing races. */
const MIN_PAUSE_MS = 5;

/** The backoff after the `attempts`-th failed attempt. */
function backoffAfter(schedule: readonly number[], attempts: number): number {
  return schedule[Math.min(attempts, schedule.length) - 1] ?? 0;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Starts a worker running the jobs in `kv` with handlers by message type. */
export function startQueueWorker(
  kv: Kv,
  handlers: Record<string, QueueHandler>,
  log: Logger,
  options: QueueWorkerOptions = {},
): QueueWorker {
  const concurrency = options.concurrency ?? CONCURRENCY;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const pollMs = options.pollMs ?? POLL_MS;
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const backoffMs = options.backoffMs ?? BACKOFF_MS;
  const now = options.now ?? Date.now;
  const owner = crypto.randomUUID();
  const running = new Set<Promise<void>>();
  let stopped = false;
  let woken = false;
  let wakeSleeper: (() => void) | null = null;
  const wake = () => {
    woken = true;
    wakeSleeper?.();
  };

  const watcher = watchJobWakeUps(kv).getReader();
  (async () => {
    while (!(await watcher.read()).done) wake();
  })().catch((error) => {
    if (!stopped) log.warn("job wake-ups stopped; polling only", { error });
  }).finally(() => {
    // The stream ends when the store closes: nothing more can run.
    stopped = true;
    wake();
  });

  /** Finished jobs waiting to be removed, several per commit. */
  const finished: { entry: KvEntry<JobRecord>; removed: PromiseWithResolvers<void> }[] = [];
  let removing: Promise<void> | null = null;

  async function removeFinished(): Promise<void> {
    while (finished.length > 0) {
      const batch = finished.splice(0, MAX_CHECKS_PER_COMMIT);
      const entries = batch.map((job) => job.entry);
      try {
        if (!await retryTransient(log, "finish jobs", () => finishJobs(kv, entries))) {
          // One changed hands (its lease ran out): remove the others one by one.
          for (const entry of entries) {
            await retryTransient(log, "finish a job", () => finishJobs(kv, [entry]));
          }
        }
        for (const job of batch) job.removed.resolve();
      } catch (error) {
        for (const job of batch) job.removed.reject(error);
      }
    }
    removing = null;
  }

  /** Removes a finished job, together with others finished meanwhile. */
  function finish(entry: KvEntry<JobRecord>): Promise<void> {
    const removed = Promise.withResolvers<void>();
    finished.push({ entry, removed });
    removing ??= removeFinished();
    return removed.promise;
  }

  async function settle(claimed: KvEntry<JobRecord>, failure: unknown): Promise<void> {
    const { message, attempts, id } = claimed.value;
    if (failure === undefined) {
      await finish(claimed);
      return;
    }
    const reason = describe(failure);
    if (attempts >= maxAttempts) {
      log.error("job failed its last attempt and is dead", { type: message.type, id, reason });
      await retryTransient(log, "end a dead job", () => buryJob(kv, claimed, reason, now()));
      return;
    }
    log.error("job failed; it will be tried again", {
      type: message.type,
      eventId: typeof message.eventId === "string" ? message.eventId : undefined,
      events: Array.isArray(message.eventIds) ? message.eventIds.length : undefined,
      attempts,
      error: failure,
    });
    const dueAt = now() + backoffAfter(backoffMs, attempts);
    await retryTransient(log, "retry a job", () => retryJob(kv, claimed, dueAt, reason));
  }

  async function run(claimed: KvEntry<JobRecord>): Promise<void> {
    const { message } = claimed.value;
    const handler = Object.hasOwn(handlers, message.type) ? handlers[message.type] : undefined;
    if (!handler) {
      log.error("job of unknown type is dead", { type: message.type });
      await buryJob(kv, claimed, `no handler for jobs of type ${message.type}`, now());
      return;
    }
    let held = claimed;
    let renewing = Promise.resolve();
    const renewal = setInterval(() => {
      renewing = renewing.then(async () => {
        held = await renewJob(kv, held, now(), leaseMs) ?? held;
      }).catch((error) => log.warn("job lease renewal failed", { id: claimed.value.id, error }));
    }, leaseMs / 3);
    let failure: unknown = undefined;
    try {
      await handler(message);
    } catch (error) {
      failure = error ?? new Error("handler threw nothing");
    } finally {
      clearInterval(renewal);
      await renewing;
    }
    await settle(held, failure);
  }

  function start(claimed: KvEntry<JobRecord>) {
    const job: Promise<void> = run(claimed)
      .catch((error) =>
        log.error("job bookkeeping failed; the job comes back when its lease ends", {
          id: claimed.value.id,
          error,
        })
      )
      .finally(() => {
        running.delete(job);
        wake();
      });
    running.add(job);
  }

  /** Claims and starts due jobs while slots are free; how long to sleep afterwards. */
  async function claimDue(): Promise<number> {
    const free = concurrency - running.size;
    if (free <= 0) return pollMs;
    const { due, nextDueAt } = await listDueJobs(kv, now(), free);
    let lost = false;
    const passing = (error: unknown) => {
      if (isPassingStoreError(error)) return null; // a busy store: look again shortly
      throw error;
    };
    // Workers that look at the same time see the same due jobs: each starts its claims at a
    // random chunk, so their claims seldom collide.
    const chunks = Math.ceil(due.length / MAX_CHECKS_PER_COMMIT);
    const offset = Math.floor(Math.random() * chunks);
    for (let index = 0; index < chunks && !stopped; index++) {
      const first = ((index + offset) % chunks) * MAX_CHECKS_PER_COMMIT;
      const chunk = due.slice(first, first + MAX_CHECKS_PER_COMMIT);
      const together = await claimJobs(kv, chunk, owner, now(), leaseMs).catch(passing);
      if (together) {
        together.forEach(start);
        continue;
      }
      // Another worker took one of them: claim the rest one by one.
      for (const entry of chunk) {
        const claimed = stopped ? null : await claimJob(kv, entry, owner, now(), leaseMs)
          .catch(passing);
        if (claimed) start(claimed);
        else lost = true;
      }
    }
    if (lost || due.length === free) return MIN_PAUSE_MS;
    if (nextDueAt === null) return pollMs;
    return Math.min(pollMs, Math.max(MIN_PAUSE_MS, nextDueAt - now()));
  }

  const loop = (async () => {
    while (!stopped) {
      woken = false;
      let sleepMs = pollMs;
      try {
        sleepMs = await claimDue();
      } catch (error) {
        if (!stopped) log.warn("job worker could not read the jobs", { error });
      }
      if (stopped || woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, sleepMs);
        function done() {
          clearTimeout(timer);
          wakeSleeper = null;
          resolve();
        }
        wakeSleeper = done;
      });
    }
  })();

  return {
    async drain(timeoutMs) {
      stopped = true;
      wake();
      await watcher.cancel().catch(() => {});
      await loop;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => timer = setTimeout(resolve, timeoutMs));
      await Promise.race([Promise.allSettled([...running]), timeout]);
      clearTimeout(timer);
    },
    inFlight: () => running.size,
  };
}
