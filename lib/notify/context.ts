/** What the personal-notification jobs share: storage, settings, the chat adapters, the clock. */
import type { Kv } from "../store/backend/types.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { Adapters } from "../delivery/adapters.ts";

/** The services and settings of the `notify_event` and `notify_flush` jobs. */
export interface NotifyContext {
  kv: Kv;
  config: Config;
  log: Logger;
  /** The delivery worker's adapters: every chat call goes through one and its limiter. */
  adapters: Adapters;
  /** Notifications within this long after a message wait and go together (default 60 s). */
  windowMs: number;
  /** The first notification after a quiet spell waits this long for others (default 10 s). */
  gatherMs: number;
  /** Rate-limit waits up to this long are slept; longer ones move the flush. */
  maxSleepMs: number;
  now(): number;
  sleep(ms: number): Promise<void>;
}
