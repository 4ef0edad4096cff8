/**
 * The delivery worker: the `deliver` and `lane` queue handlers with their
 * shared context, plus start-up upkeep (allowing, once, the targets of routes
 * stored before target ownership existed, re-queuing deliver jobs KV gave up
 * on, resuming lanes whose queue message was lost, pruning old counters).
 */
import type { Config } from "../config.ts";
import { createThreadParents } from "../discord/threads.ts";
import type { Logger } from "../log.ts";
import type { QueueHandler } from "../store/queue.ts";
import { isDeliverJob, requeueUndeliveredJobs } from "../store/events.ts";
import { isLaneMessage, resumeLanes } from "../store/lanes.ts";
import { pruneCounters } from "../store/metrics.ts";
import { retentionMs } from "../store/send_logs.ts";
import type { DeliveryContext } from "./context.ts";
import { fanOut } from "./fan_out.ts";
import { runLane } from "./lane_runner.ts";
import { DEFAULT_BACKOFF_MS } from "./retry_policy.ts";
import { createRouteCache, type RouteCache } from "./route_cache.ts";
import { createSenders, type Limiters } from "./senders.ts";
import { createTargetGuard } from "./target_guard.ts";
import { digestCloseHandler, withNoiseControl } from "./noise.ts"; // noise control hook

/** Settings of the delivery worker; everything but `kv`, `config` and `log` has a default. */
export interface DeliveryWorkerOptions {
  kv: Deno.Kv;
  config: Config;
  log: Logger;
  /** A route cache to use (default: a new one, closed by `close()`). */
  routes?: RouteCache;
  limiters?: Limiters;
  backoffMs?: readonly number[];
  leaseMs?: number;
  laneBudgetMs?: number;
  maxSleepMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** A delivery worker's handlers and upkeep. */
export interface DeliveryWorker {
  /** Queue handlers by message type: `deliver` and `lane`. */
  handlers: Record<string, QueueHandler>;
  /**
   * Runs the target ownership upgrade, re-queues abandoned deliver jobs, resumes orphaned
   * lanes and prunes old counters.
   */
  upkeep(): Promise<void>;
  /** Stops the route cache the worker created. */
  close(): void;
}

const LEASE_MS = 30_000;
const LANE_BUDGET_MS = 5_000;
const MAX_SLEEP_MS = 1_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Builds the delivery worker. */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const ownsRoutes = options.routes === undefined;
  const routes = options.routes ?? createRouteCache(options.kv);
  const now = options.now ?? Date.now;
  const noise = {
    ...options,
    now,
    routes,
    retentionMs: retentionMs(options.config.sendLogRetentionDays),
  }; // noise control hook
  const ctx: DeliveryContext = {
    kv: options.kv,
    log: options.log,
    routes,
    senders: withNoiseControl(noise, createSenders(options.config, options.limiters)), // noise control hook
    targets: createTargetGuard(options.kv, createThreadParents(options.config.discord)),
    backoffMs: options.backoffMs ?? DEFAULT_BACKOFF_MS,
    retentionMs: retentionMs(options.config.sendLogRetentionDays),
    globalIngress: options.config.globalIngressGroups,
    leaseMs: options.leaseMs ?? LEASE_MS,
    laneBudgetMs: options.laneBudgetMs ?? LANE_BUDGET_MS,
    maxSleepMs: options.maxSleepMs ?? MAX_SLEEP_MS,
    startedAt: now(),
    now,
    sleep: options.sleep ?? sleep,
  };
  return {
    handlers: {
      async deliver(message) {
        if (!isDeliverJob(message)) {
          ctx.log.error("malformed deliver job dropped", { message });
          return;
        }
        await fanOut(ctx, message);
      },
      async lane(message) {
        if (!isLaneMessage(message)) {
          ctx.log.error("malformed lane message dropped", { message });
          return;
        }
        await runLane(ctx, message);
      },
      digest_close: digestCloseHandler(noise), // noise control hook
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
    close() {
      if (ownsRoutes) routes.close();
    },
  };
}
