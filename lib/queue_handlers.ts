/** The handlers of every job type the application adds (lib/store/delivery/jobs.ts). */
import type { Kv } from "./store/backend/types.ts";
import type { Config } from "./config.ts";
import type { Adapters } from "./delivery/adapters.ts";
import { createDeliveryWorker } from "./delivery/worker.ts";
import type { Logger } from "./log.ts";
import { notifyHandlers } from "./notify/handlers.ts";
import type { QueueHandler } from "./delivery/job_worker.ts";

/** Services the job handlers use. */
interface WorkerDeps {
  kv: Kv;
  config: Config;
  log: Logger;
  /** The chat platforms' adapters, shared with the app's requests (default: new ones). */
  adapters?: Adapters;
}

/** The job handlers and what stops the work they started. */
interface QueueService {
  handlers: Record<string, QueueHandler>;
  /** Stops the delivery sweep and passes the lanes this instance holds on to the next run. */
  stop(): Promise<void>;
}

/**
 * Handlers by message type: `deliver` (route an accepted event into delivery
 * units), `lane` (send one target's units in order), `digest_close`, and the personal
 * notifications' `notify_event` and `notify_flush` (lib/notify/handlers.ts). Starting
 * them also resumes lanes whose job was lost while the process was down, and
 * starts the periodic delivery sweep.
 */
export function queueHandlers(deps: WorkerDeps): QueueService {
  const worker = createDeliveryWorker(deps);
  worker.upkeep().catch((error) => deps.log.error("delivery upkeep failed", { error }));
  const personal = notifyHandlers({ ...deps, adapters: worker.adapters });
  return { handlers: { ...worker.handlers, ...personal }, stop: () => worker.close() };
}
