/**
 * The delivery sweep: recovery without a restart. Every instance runs it
 * periodically; a KV lease lets one instance at a time do the work. It wakes
 * lanes whose lease ran out (a runner's process died mid-send) or whose lane
 * job never ran, re-queues parked deliver jobs and those a stopped process
 * held (a fan-out pending for longer than the stall time), and puts
 * back `retrying` units that are past their next attempt while no lane holds
 * them, and queues the close of digests whose window ended without one (a pass over the
 * digests on this process's first sweep, then hourly: `digest_close.ts`), and
 * removes a bounded amount of what deleted groups left (`lib/store/config/group_leftovers.ts`),
 * ends a bounded number of the units held for a deleted group's paused target
 * (`lib/store/delivery/held_leftovers.ts`),
 * and once a day prunes the delivery counters past the retention (as the start-up does), so a
 * long-running instance keeps them bounded too.
 * Each tick also leaves this instance's heartbeat and tells the adapters how many instances
 * share the bots' global limits.
 */
import { requeueStalledFanOuts, requeueUndeliveredJobs } from "../store/delivery/fan_out_jobs.ts";
import { forgetInstance, heartbeat, takeNamedLease } from "../store/telemetry/instances.ts";
import { recoverStalledLanes } from "../store/delivery/lanes.ts";
import { reattachStrandedUnits } from "../store/delivery/units.ts";
import type { DeliveryContext } from "./context.ts";
import { closeStrandedDigests, newDigestScan } from "./digest_close.ts";
import { newLeftoverScan, sweepGroupLeftovers } from "../store/config/group_leftovers.ts";
import { endDeletedGroupsHeld, newHeldScan } from "../store/delivery/held_leftovers.ts";
import { pruneCounters } from "../store/telemetry/metrics.ts";

/** What one sweep did (null fields: another instance held the sweep's lease). */
export interface SweepReport {
  instances: number;
  lanes: number | null;
  jobs: number | null;
  units: number | null;
  /** Digest closes queued. */
  digests: number | null;
  /** Keys of deleted groups removed. */
  groups: number | null;
  /** Held units of deleted groups ended. */
  held: number | null;
  /** Delivery counter days pruned (0 but once a day). */
  counters: number | null;
}

/** The periodic sweep of one instance. */
export interface Sweeper {
  /** Runs one sweep now. */
  sweep(): Promise<SweepReport>;
  /** Stops the timer and removes this instance's heartbeat. */
  stop(): Promise<void>;
}

const SWEEP_LEASE = "delivery-sweep";
const DAY_MS = 24 * 60 * 60 * 1000;

/** Sweep timings. */
interface SweepOptions {
  /** Time between sweeps (0: no timer; `sweep()` still works). */
  everyMs: number;
  /** How late a lane job or a unit's next attempt must be before the sweep acts. */
  stallMs: number;
}

/** Starts the sweep of the instance `instanceId`. */
export function startSweeper(
  ctx: DeliveryContext,
  instanceId: string,
  options: SweepOptions,
): Sweeper {
  const aliveMs = Math.max(3 * options.everyMs, 1_000);
  let running: Promise<SweepReport> | null = null;
  const digestScan = newDigestScan();
  const leftoverScan = newLeftoverScan();
  const heldScan = newHeldScan();
  /** When this instance last pruned the counters (the start-up prunes them first). */
  let prunedAt = ctx.now();

  async function sweepOnce(): Promise<SweepReport> {
    const now = ctx.now();
    const instances = await heartbeat(ctx.kv, instanceId, now, aliveMs);
    for (const adapter of ctx.adapters.values()) adapter.shareGlobal(instances);
    const leaseMs = Math.max(2 * options.everyMs, 1_000);
    if (!await takeNamedLease(ctx.kv, SWEEP_LEASE, instanceId, now, leaseMs)) {
      return {
        instances,
        lanes: null,
        jobs: null,
        units: null,
        digests: null,
        groups: null,
        held: null,
        counters: null,
      };
    }
    const lanes = await recoverStalledLanes(ctx.kv, ctx.now(), options.stallMs);
    const jobs = await requeueUndeliveredJobs(ctx.kv, ctx.now()) +
      await requeueStalledFanOuts(ctx.kv, ctx.now(), options.stallMs);
    const units = await reattachStrandedUnits(ctx.kv, ctx.now(), options.stallMs);
    const digests = await closeStrandedDigests(ctx, digestScan, options.stallMs);
    const groups = await sweepGroupLeftovers(ctx.kv, leftoverScan, ctx.now());
    const held = await endDeletedGroupsHeld(ctx.kv, heldScan, ctx.now(), ctx.retentionMs);
    let counters = 0;
    if (ctx.now() - prunedAt >= DAY_MS) {
      prunedAt = ctx.now();
      counters = await pruneCounters(ctx.kv, ctx.retentionMs, prunedAt);
    }
    if ([lanes, jobs, units, digests, groups, held, counters].some((count) => count > 0)) {
      ctx.log.info("delivery sweep", { lanes, jobs, units, digests, groups, held, counters });
    }
    return { instances, lanes, jobs, units, digests, groups, held, counters };
  }

  function sweep(): Promise<SweepReport> {
    running ??= sweepOnce().finally(() => running = null);
    return running;
  }

  const timer = options.everyMs > 0
    ? setInterval(() => {
      sweep().catch((error) => ctx.log.warn("delivery sweep failed", { error }));
    }, options.everyMs)
    : undefined;

  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => {});
      await forgetInstance(ctx.kv, instanceId).catch(() => {});
    },
  };
}
