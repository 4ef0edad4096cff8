/** The handlers of every queue message type the application enqueues. */
import type { Config } from "./config.ts";
import { createDeliveryWorker } from "./delivery/worker.ts";
import type { Logger } from "./log.ts";
import type { QueueHandler } from "./store/queue.ts";

/** Services the queue handlers use. */
export interface WorkerDeps {
  kv: Deno.Kv;
  config: Config;
  log: Logger;
}

/**
 * Handlers by message type: `deliver` (route an accepted event into delivery
 * units) and `lane` (send one target's units in order). Starting them also
 * resumes lanes whose queue message was lost while the process was down.
 */
export function queueHandlers(deps: WorkerDeps): Record<string, QueueHandler> {
  const worker = createDeliveryWorker(deps);
  worker.upkeep().catch((error) => deps.log.error("delivery upkeep failed", { error }));
  return worker.handlers;
}
