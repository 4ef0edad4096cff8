/** What the delivery handlers share: storage, routes, platform adapters, policy and clock. */
import type { Kv } from "../store/backend/types.ts";
import type { Logger } from "../log.ts";
import type { Adapters } from "./adapters.ts";
import type { ChatButtons } from "./render.ts";
import type { RateLimitBound } from "./retry_policy.ts";
import type { RouteCache } from "./route_cache.ts";
import type { TargetGuard } from "./target_guard.ts";
import type { HealthPolicy } from "./target_health.ts";

/** The delivery worker's services and settings. */
export interface DeliveryContext {
  kv: Kv;
  log: Logger;
  routes: RouteCache;
  /** One adapter per platform: every chat call goes through one (`chat_calls.ts`). */
  adapters: Adapters;
  /** Target ownership, checked before each attempt. */
  targets: TargetGuard;
  /** Waits before each retry of a network error, timeout or 5xx. */
  backoffMs: readonly number[];
  /** How long, and how many times in a row, 429s may refuse a unit before it is `dead`. */
  rateLimitBound: RateLimitBound;
  /** When failures in a row pause a target (`target_health.ts`). */
  health: HealthPolicy;
  /** How long send logs, indexes and bodies are kept. */
  retentionMs: number;
  /** A runner's lease on a lane, renewed once half is spent (over twice one call's timeout). */
  leaseMs: number;
  /** Waits up to this long are held in process; longer ones pass the lane on through the queue. */
  holdMs: number;
  /** Rate-limit waits up to this long are slept at once; longer ones are scheduled. */
  maxSleepMs: number;
  /** Which groups events of the global ingress enter. */
  globalIngress: "all" | "claimed";
  /** Which platforms' notifications carry chat-ops buttons; all when absent. */
  buttons?: ChatButtons;
  /** When this worker started (Unix ms); see lib/delivery/order_gate.ts. */
  startedAt: number;
  now(): number;
  sleep(ms: number): Promise<void>;
}
