/** What the delivery handlers share: storage, routes, senders, policy and clock. */
import type { Logger } from "../log.ts";
import type { RouteCache } from "./route_cache.ts";
import type { PlatformSender } from "./senders.ts";
import type { TargetGuard } from "./target_guard.ts";

/** The delivery worker's services and settings. */
export interface DeliveryContext {
  kv: Deno.Kv;
  log: Logger;
  routes: RouteCache;
  senders: Record<string, PlatformSender>;
  /** Target ownership, checked before each attempt. */
  targets: TargetGuard;
  /** Waits before each retry of a network error, timeout or 5xx. */
  backoffMs: readonly number[];
  /** How long send logs, indexes and bodies are kept. */
  retentionMs: number;
  /** How long a runner holds a lane (longer than one call plus `laneBudgetMs`). */
  leaseMs: number;
  /** How long one queue message works on a lane before passing it on. */
  laneBudgetMs: number;
  /** Rate-limit waits up to this long are slept; longer ones hand the lane off with a delay. */
  maxSleepMs: number;
  /** Which groups events of the global ingress enter. */
  globalIngress: "all" | "claimed";
  /** When this worker started (Unix ms); see lib/delivery/order_gate.ts. */
  startedAt: number;
  now(): number;
  sleep(ms: number): Promise<void>;
}
