/**
 * The lane scheduler: holds the lanes this instance works on, in process. A
 * `lane` job carrying the lane's current token lets an instance take the
 * lane's lease; the scheduler then works the lane with its own timers
 * (sending, waiting out rate limits and short backoffs) and renews the lease,
 * so a wait costs no job round trip. The lane is passed on as a new lane job
 * only for a long wait (over `holdMs`), when the instance stops, or after
 * repeated store errors; the lane's rate-limit state goes with it. If the
 * instance dies, its lease runs out and the delivery sweep wakes the lane on
 * another instance.
 */
import {
  handOffLane,
  isLaneMessage,
  type LaneMessage,
  parkLane,
  readLanePace,
  renewLease,
  requeueLaneMessage,
  takeLease,
} from "../store/delivery/lanes.ts";
import { isLanePace } from "../platform/lane_pace.ts";
import type { DeliveryContext } from "./context.ts";
import { type HeldLane, paceOfLane, step } from "./lane_runner.ts";
import { retryTransient } from "../store/transient.ts";

/** Store errors in a row after which a lane is passed on rather than retried in process. */
const ERRORS_BEFORE_HAND_OFF = 5;

/** Lanes held in process, and the handler of `lane` jobs. */
export class LaneScheduler {
  readonly #ctx: DeliveryContext;
  readonly #owner = crypto.randomUUID();
  readonly #held = new Map<string, Promise<void>>();
  readonly #wakers = new Set<() => void>();
  /** Wakers of lanes waiting for an older event's fan-out. */
  readonly #orderWakers = new Set<() => void>();
  /** Who waits for an entry that is no unit (a digest's close) to be worked, by entry id. */
  readonly #entryWaiters = new Map<string, () => void>();
  #stopping = false;

  /** A scheduler working with `ctx`. */
  constructor(ctx: DeliveryContext) {
    this.#ctx = ctx;
  }

  /** Handles a `lane` job: takes the lane and holds it, or does nothing when stale. */
  async accept(message: unknown): Promise<void> {
    const ctx = this.#ctx;
    if (!isLaneMessage(message)) {
      ctx.log.error("malformed lane message dropped", { message });
      return;
    }
    if (this.#stopping) throw new Error("delivery worker stopping: lane left for another run");
    const lease = await retryTransient(
      ctx.log,
      "take a lane",
      () => takeLease(ctx.kv, message, this.#owner, ctx.now(), ctx.leaseMs),
    );
    if (lease.kind === "stale") return;
    if (lease.kind === "busy") {
      await requeueLaneMessage(ctx.kv, message, lease.untilMs - ctx.now());
      return;
    }
    const stored = await readLanePace(ctx.kv, message.lane);
    const inherited = isLanePace(stored) ? stored : null;
    const held: HeldLane = {
      lane: message.lane,
      run: lease.run,
      inherited,
      ahead: [],
      aheadReadAt: 0,
      worked: (entryId) => this.#entryWaiters.get(entryId)?.(),
    };
    // A lane taken again while this instance still works it (its lease looked expired, e.g.
    // after a clock jump) starts once the earlier run has ended, never beside it.
    const earlier = this.#held.get(message.lane) ?? Promise.resolve();
    const work: Promise<void> = earlier.then(() => this.#hold(held, message))
      .catch((error) => ctx.log.error("lane stopped; the sweep will resume it", { error }))
      .finally(() => {
        if (this.#held.get(message.lane) === work) this.#held.delete(message.lane);
      });
    this.#held.set(message.lane, work);
  }

  /**
   * Wakes the lanes waiting for older events' fan-outs: one finished in this
   * process, so they look again now rather than at their next poll.
   */
  fanOutDone(): void {
    for (const wake of this.#orderWakers) wake();
  }

  /**
   * Resolves once a lane held here has worked the entry `entryId`, or after `boundMs` (it may
   * be worked by another instance, or later).
   */
  worked(entryId: string, boundMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#entryWaiters.delete(entryId);
        resolve();
      };
      const timer = setTimeout(done, boundMs);
      this.#entryWaiters.set(entryId, done);
    });
  }

  /** Passes every held lane on (due when it would have gone on here) and waits for them. */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const wake of this.#wakers) wake();
    await Promise.allSettled([...this.#held.values()]);
  }

  async #hold(held: HeldLane, message: LaneMessage): Promise<void> {
    const ctx = this.#ctx;
    let resumeAt = 0;
    let errors = 0;
    while (true) {
      if (this.#stopping) {
        await this.#passOn(held, resumeAt - ctx.now());
        return;
      }
      try {
        if (!await this.#keepLease(held)) return;
        const outcome = await step(ctx, held);
        errors = 0;
        if (outcome.kind === "idle" || outcome.kind === "lost") return;
        if (outcome.kind === "park") {
          await retryTransient(
            ctx.log,
            "park a lane",
            () => parkLane(ctx.kv, held.lane, held.run, ctx.now()),
          );
          return;
        }
        if (outcome.kind === "next") continue;
        if (outcome.delayMs > ctx.holdMs) {
          await this.#passOn(held, outcome.delayMs);
          return;
        }
        resumeAt = ctx.now() + outcome.delayMs;
        // A wait longer than a quarter of the lease is cut in pieces, the lease renewed between.
        while (ctx.now() < resumeAt && !this.#stopping) {
          const piece = Math.min(resumeAt - ctx.now(), ctx.leaseMs / 4);
          if (await this.#wait(piece, outcome.forOlderEvents === true)) break;
          if (ctx.now() < resumeAt && !await this.#keepLease(held)) return;
        }
      } catch (error) {
        errors++;
        ctx.log.warn("lane step failed", { lane: message.lane, errors, error });
        if (errors >= ERRORS_BEFORE_HAND_OFF) {
          await this.#passOn(held, 1_000).catch(() => {});
          return;
        }
        await this.#wait(Math.min(2_000, 50 * 2 ** errors));
      }
    }
  }

  /** Renews the lease once half of it is spent; false when the lane changed hands. */
  async #keepLease(held: HeldLane): Promise<boolean> {
    const ctx = this.#ctx;
    const now = ctx.now();
    if ((held.run.value.leaseUntil ?? 0) - now > ctx.leaseMs / 2) return true;
    const renewed = await renewLease(ctx.kv, held.lane, held.run, now, ctx.leaseMs);
    if (!renewed) return false;
    held.run = renewed;
    return true;
  }

  async #passOn(held: HeldLane, delayMs: number): Promise<void> {
    const ctx = this.#ctx;
    await retryTransient(
      ctx.log,
      "pass a lane on",
      () => handOffLane(ctx.kv, held.lane, held.run, delayMs, ctx.now(), paceOfLane(ctx, held)),
    );
  }

  /**
   * Waits `ms`, or less when the scheduler stops (or, for an order wait, a fan-out ends);
   * true when it was cut short.
   */
  #wait(ms: number, forOlderEvents = false): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = (early = true) => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        this.#orderWakers.delete(wake);
        resolve(early);
      };
      const timer = setTimeout(() => wake(false), ms);
      this.#wakers.add(wake);
      if (forOlderEvents) this.#orderWakers.add(wake);
    });
  }
}
