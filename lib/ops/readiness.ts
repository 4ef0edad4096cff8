/**
 * Readiness for `GET /health?ready`: whether KV answers, and how much work waits. The queue
 * figures are read at most once a second per store handle and shared by the requests of that
 * second, so the public endpoint cannot be used to make an instance scan its queue in a loop.
 */
import type { Kv } from "../store/backend/types.ts";
import { checkHealth } from "../store/telemetry/health.ts";
import { type QueueFigures, readQueueFigures } from "../store/telemetry/queue_figures.ts";

/** How long a reading is reused. */
const READING_TTL_MS = 1_000;

/** The readiness answer. */
interface Readiness {
  status: "ok";
  ready: true;
  kv: "ok";
  queue: {
    /** Units not yet final. */
    delivery: number;
    /** Events whose fan-out is pending. */
    fanOut: number;
    /** Parked deliver jobs (waiting to be re-queued) and dead jobs. */
    parked: number;
    /** True when a figure reached the counting limit (it is a lower bound). */
    capped: boolean;
  };
  /** Age of the oldest waiting event in seconds; 0 when nothing waits. */
  oldestPendingAgeSeconds: number;
}

const readings = new WeakMap<Kv, { at: number; figures: Promise<QueueFigures> }>();

function queueFigures(kv: Kv, now: number): Promise<QueueFigures> {
  const cached = readings.get(kv);
  if (cached && now - cached.at < READING_TTL_MS) return cached.figures;
  const figures = readQueueFigures(kv, now);
  readings.set(kv, { at: now, figures });
  figures.catch(() => readings.delete(kv));
  return figures;
}

/** The readiness of an instance, or null when KV cannot be read (not ready). */
export async function readReadiness(kv: Kv, now = Date.now()): Promise<Readiness | null> {
  if (!await checkHealth(kv)) return null;
  try {
    const figures = await queueFigures(kv, now);
    return {
      status: "ok",
      ready: true,
      kv: "ok",
      queue: {
        delivery: figures.units,
        fanOut: figures.pendingFanOuts,
        parked: figures.parkedJobs,
        capped: figures.capped,
      },
      oldestPendingAgeSeconds: figures.oldestPendingAt === undefined
        ? 0
        : Math.max(0, Math.round((now - figures.oldestPendingAt) / 1000)),
    };
  } catch {
    return null;
  }
}
