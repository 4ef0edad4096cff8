/** The handlers of every queue message type the application enqueues. */
import type { Config } from "./config.ts";
import type { Logger } from "./log.ts";
import type { QueueHandler } from "./queue.ts";

/** Services the queue handlers use. */
export interface WorkerDeps {
  kv: Deno.Kv;
  config: Config;
  log: Logger;
}

/** Handlers by message type. */
export function queueHandlers(_deps: WorkerDeps): Record<string, QueueHandler> {
  return {};
}
