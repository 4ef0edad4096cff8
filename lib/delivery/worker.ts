/**
 * The delivery worker: the `deliver`, `lane`, `digest_close` and `replay` job handlers
 * with their shared context, the lane scheduler that holds lanes in process,
 * the periodic sweep, and start-up upkeep (allowing, once, the targets of
 * routes stored before target ownership existed, re-queuing parked deliver
 * jobs, resuming lanes whose job was lost, pruning old counters).
 */
import type { Kv } from "../store/backend/types.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { QueueHandler } from "./job_worker.ts";
import { isFanOutJob, requeueUndeliveredJobs } from "../store/delivery/fan_out_jobs.ts";
import { resumeLanes } from "../store/delivery/lanes.ts";
import { pruneCounters } from "../store/telemetry/metrics.ts";
import { retentionMs } from "../store/delivery/send_logs.ts";
import type { DeliveryContext } from "./context.ts";
import { fanOut } from "./fan_out.ts";
import { LaneScheduler } from "./lane_scheduler.ts";
import {
  DEFAULT_BACKOFF_MS,
  DEFAULT_RATE_LIMIT_BOUND,
  type RateLimitBound,
} from "./retry_policy.ts";
import { chatButtonsOf } from "./render.ts";
import { createRouteCache, type RouteCache } from "./route_cache.ts";
import { type Adapters, createAdapters, type Limiters } from "./adapters.ts";
import { digestCloseHandler } from "./digest_close.ts";
import { replayHandler } from "./bulk_replay.ts";
import { startSweeper, type Sweeper, type SweepReport } from "./sweep.ts";
import { createTargetGuard } from "./target_guard.ts";
import { DEFAULT_HEALTH_POLICY, type HealthPolicy } from "./target_health.ts";
import { reminderHandlers } from "./reminder_jobs.ts";

/** Settings of the delivery worker; everything but `kv`, `config` and `log` has a default. */
interface DeliveryWorkerOptions {
  kv: Kv;
  config: Config;
  log: Logger;
  /** A route cache to use (default: a new one, closed by `close()`). */
  routes?: RouteCache;
  limiters?: Limiters;
  /** The adapters to send through (default: new ones with `limiters`). */
  adapters?: Adapters;
  backoffMs?: readonly number[];
  rateLimitBound?: RateLimitBound;
  /** When failures in a row pause a target (default: five over at least ten minutes). */
  health?: HealthPolicy;
  leaseMs?: number;
  holdMs?: number;
  maxSleepMs?: number;
  /** Time between sweeps (default 5 s; 0: only when `sweep()` is called). */
  sweepEveryMs?: number;
  /** How late a lane or unit must be before the sweep acts (default 10 s). */
  stallMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** A delivery worker's handlers and upkeep. */
export interface DeliveryWorker {
  /** Job handlers by message type: `deliver`, `lane`, `digest_close` and `replay`. */
  handlers: Record<string, QueueHandler>;
  /** The platform adapters (and their limiters), for other jobs that send into chats. */
  adapters: Adapters;
  /**
   * Runs the target ownership upgrade, re-queues abandoned deliver jobs, resumes orphaned
   * lanes and prunes old counters.
   */
  upkeep(): Promise<void>;
  /** Runs the recovery sweep once now (it also runs every `sweepEveryMs`). */
  sweep(): Promise<SweepReport>;
  /** Stops the sweep, passes held lanes on, and stops the route cache the worker created. */
  close(): Promise<void>;
}

const LEASE_MS = 20_000;
const HOLD_MS = 10_000;
const MAX_SLEEP_MS = 1_000;
const SWEEP_EVERY_MS = 5_000;
const STALL_MS = 10_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Builds the delivery worker. */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const ownsRoutes = options.routes === undefined;
  const routes = options.routes ?? createRouteCache(options.kv);
  const now = options.now ?? Date.now;
  const adapters = options.adapters ?? createAdapters(options.config, options.limiters);
  const pacing = { maxSleepMs: options.maxSleepMs ?? MAX_SLEEP_MS, sleep: options.sleep ?? sleep };
  const ctx: DeliveryContext = {
    kv: options.kv,
    log: options.log,
    routes,
    adapters,
    targets: createTargetGuard(options.kv, adapters, pacing),
    backoffMs: options.backoffMs ?? DEFAULT_BACKOFF_MS,
    rateLimitBound: options.rateLimitBound ?? DEFAULT_RATE_LIMIT_BOUND,
    health: options.health ?? DEFAULT_HEALTH_POLICY,
    retentionMs: retentionMs(options.config.sendLogRetentionDays),
    globalIngress: options.config.globalIngressGroups,
    buttons: chatButtonsOf(options.config),
    leaseMs: options.leaseMs ?? LEASE_MS,
    holdMs: options.holdMs ?? HOLD_MS,
    ...pacing,
    startedAt: now(),
    now,
  };
  const scheduler = new LaneScheduler(ctx);
  const sweeper: Sweeper = startSweeper(ctx, crypto.randomUUID(), {
    everyMs: options.sweepEveryMs ?? SWEEP_EVERY_MS,
    stallMs: options.stallMs ?? STALL_MS,
  });
  return {
    adapters: ctx.adapters,
    handlers: {
      async deliver(message) {
        if (!isFanOutJob(message)) {
          ctx.log.error("malformed deliver job dropped", { message });
          return;
        }
        try {
          await fanOut(ctx, message);
        } finally {
          scheduler.fanOutDone();
        }
      },
      digest_close: digestCloseHandler(
        ctx,
        (entryId, boundMs) => scheduler.worked(entryId, boundMs),
      ),
      lane: (message) => scheduler.accept(message),
      replay: replayHandler(ctx),
      ...reminderHandlers(ctx, options.config), // review reminders
    },
    async upkeep() {
      const allowed = await ctx.targets.upgrade();
      const requeued = await requeueUndeliveredJobs(ctx.kv, ctx.now());
      const resumed = await resumeLanes(ctx.kv, ctx.now());
      const pruned = await pruneCounters(ctx.kv, ctx.retentionMs, ctx.now());
      if (allowed > 0 || requeued > 0 || resumed > 0 || pruned > 0) {
        ctx.log.info("delivery upkeep", { allowed, requeued, resumed, pruned });
      }
    },
    sweep: () => sweeper.sweep(),
    async close() {
      const stopping = sweeper.stop();
      if (ownsRoutes) routes.close();
      await scheduler.stop();
      await stopping;
    },
  };
}
