/**
 * The KV queue listener: dispatches each message to the handler for its
 * `type`, tracks handlers in flight, and on shutdown refuses new messages
 * (they stay queued) while the running ones finish.
 */
import type { Logger } from "../log.ts";

/** A queue message: a plain object with a `type`. */
export interface QueueMessage {
  type: string;
  [field: string]: unknown;
}

/** Handles one message type; throwing makes KV deliver the message again later. */
export type QueueHandler = (message: QueueMessage) => Promise<void>;

/** A running listener. */
export interface QueueWorker {
  /** Stops taking messages and waits (at most `timeoutMs`) for running handlers. */
  drain(timeoutMs: number): Promise<void>;
  /** How many handlers are running now. */
  inFlight(): number;
}

/** Starts listening on `kv`'s queue with handlers by message type. */
export function startQueueWorker(
  kv: Deno.Kv,
  handlers: Record<string, QueueHandler>,
  log: Logger,
): QueueWorker {
  let draining = false;
  const running = new Set<Promise<void>>();
  kv.listenQueue(async (raw: unknown) => {
    if (draining) throw new Error("shutting down: message left for the next start");
    const message = raw as QueueMessage;
    const handler = handlers[message?.type];
    if (!handler) {
      log.error("queue message of unknown type dropped", { type: message?.type });
      return;
    }
    const run = handler(message);
    running.add(run);
    try {
      await run;
    } catch (error) {
      log.error("queue handler failed; the message will be retried", {
        type: message.type,
        eventId: typeof message.eventId === "string" ? message.eventId : undefined,
        events: Array.isArray(message.eventIds) ? message.eventIds.length : undefined,
        error,
      });
      throw error;
    } finally {
      running.delete(run);
    }
  }).catch((error) => {
    if (!draining) log.error("queue listener stopped", { error });
  });
  return {
    async drain(timeoutMs) {
      draining = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => timer = setTimeout(resolve, timeoutMs));
      await Promise.race([Promise.allSettled([...running]), timeout]);
      clearTimeout(timer);
    },
    inFlight: () => running.size,
  };
}
