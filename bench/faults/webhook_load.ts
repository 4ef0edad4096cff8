/**
 * The fault run's webhook sender: custom events signed with Standard Webhooks (`webhook-id` is
 * the delivery id, so a repeat is recognised as one), sent at a steady rate round robin to the
 * instances of a scenario over HTTP.
 *
 * What becomes of each event is recorded: acknowledged (200), refused with 503 and then
 * acknowledged when sent again after its `Retry-After` to the next instance (GitHub would not
 * send it again; counted apart), or never acknowledged (no answer: the instance was killed while
 * the request was open, or still refused when the run's patience ran out). Acknowledgements are
 * timed per instance slot, for the time to recover.
 */
import { utf8 } from "../../lib/encoding.ts";
import { signStandardWebhook } from "../../testing/standard_webhooks_sender.ts";

/** Where to send: the instance now in a slot (a killed one is replaced in its slot). */
export type SlotUrl = (slot: number) => Promise<string>;

/** What the sender saw. */
export interface LoadOutcome {
  /** Delivery id → event number, for every acknowledged event. */
  acknowledged: Map<string, number>;
  /** Events answered 503 at least once and acknowledged later. */
  refusedThenAcknowledged: number;
  /** 503 answers received in all. */
  refusals: number;
  /** Events never acknowledged (not counted as expected). */
  unacknowledged: number;
  /** Answers other than 200 and 503 (for example 500), in all. */
  otherErrors: Map<number, number>;
  /** When each slot acknowledged, in order (Unix ms). */
  acksBySlot: number[][];
  /**
   * By event number: when its first request went out, and when its 200 came (Unix ms). An event
   * acknowledged before another was first sent must reach a chat first. (Not the acknowledged
   * request's own send time: a request answered 503 may still have been stored, when the store
   * went away after its commit, and its retry is then acknowledged as a duplicate much later.)
   */
  timesOf: Map<number, { sentAt: number; ackAt: number }>;
}

/** How the sender runs. */
export interface LoadOptions {
  events: number;
  slots: number;
  /** Events started per second. */
  ratePerSecond: number;
  secret: string;
  /** Prefix of the delivery ids (unique per scenario). */
  runId: string;
  /** The payload fields of event `n` (besides its `message.title`). */
  fieldsOf: (n: number) => Record<string, unknown>;
  /** How long a refused event is sent again before it counts as never acknowledged. */
  patienceMs: number;
}

/** One request's outcome: the status, or null for no answer. */
async function post(url: string, id: string, body: Uint8Array<ArrayBuffer>, secret: string) {
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const response = await fetch(`${url}/webhook`, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": await signStandardWebhook(secret, id, timestamp, body),
      },
      signal: AbortSignal.timeout(30_000),
    });
    await response.body?.cancel();
    const retryAfter = Number(response.headers.get("retry-after") ?? "1");
    return { status: response.status, retryAfterMs: 1_000 * (retryAfter > 0 ? retryAfter : 1) };
  } catch {
    return null;
  }
}

/** Sends `options.events` events and resolves once every one has its outcome. */
export async function sendLoad(urlOf: SlotUrl, options: LoadOptions): Promise<LoadOutcome> {
  const outcome: LoadOutcome = {
    acknowledged: new Map(),
    refusedThenAcknowledged: 0,
    refusals: 0,
    unacknowledged: 0,
    otherErrors: new Map(),
    acksBySlot: Array.from({ length: options.slots }, () => []),
    timesOf: new Map(),
  };
  const sendOne = async (n: number) => {
    const id = `${options.runId}-${n}`;
    const body = utf8(JSON.stringify({ ...options.fieldsOf(n), message: { title: `Event ${n}` } }));
    const giveUpAt = Date.now() + options.patienceMs;
    let slot = n % options.slots;
    let refused = false;
    let sentAt: number | undefined;
    for (;;) {
      const url = await urlOf(slot);
      sentAt ??= Date.now();
      const answer = await post(url, id, body, options.secret);
      if (answer?.status === 200) {
        const ackAt = Date.now();
        outcome.acknowledged.set(id, n);
        outcome.acksBySlot[slot].push(ackAt);
        outcome.timesOf.set(n, { sentAt, ackAt });
        if (refused) outcome.refusedThenAcknowledged++;
        return;
      }
      if (answer?.status !== 503 || Date.now() > giveUpAt) {
        if (answer && answer.status !== 503) {
          outcome.otherErrors.set(answer.status, (outcome.otherErrors.get(answer.status) ?? 0) + 1);
        }
        outcome.unacknowledged++;
        return;
      }
      outcome.refusals++;
      refused = true;
      await new Promise((resolve) => setTimeout(resolve, answer.retryAfterMs));
      slot = (slot + 1) % options.slots;
    }
  };
  const running: Promise<void>[] = [];
  const startedAt = Date.now();
  for (let n = 0; n < options.events; n++) {
    const dueAt = startedAt + (n * 1_000) / options.ratePerSecond;
    const wait = dueAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    running.push(sendOne(n));
  }
  await Promise.all(running);
  return outcome;
}
