/** Shared helpers of the delivery tests: settings, a running worker, routes, events, waits. */
import type { Kv } from "../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import type { Config } from "../lib/config.ts";
import { createDeliveryWorker, type DeliveryWorker } from "../lib/delivery/worker.ts";
import { DiscordRateLimiter } from "../lib/discord/rate_limit.ts";
import { utf8 } from "../lib/encoding.ts";
import { startQueueWorker } from "../lib/delivery/job_worker.ts";
import { allowTargets } from "../lib/store/config/allowed_targets.ts";
import { saveEvent } from "../lib/store/delivery/events.ts";
import { listJobs } from "../lib/store/delivery/jobs.ts";
import { putGroup } from "../lib/store/config/groups.ts";
import { replaceRoutes } from "../lib/store/config/routes.ts";
import { listDeliveryLogs, type SendLog } from "../lib/store/delivery/send_logs.ts";
import { type TelegramLimits, TelegramPacer } from "../lib/telegram/pacer.ts";
import type { Route, Target } from "../lib/types.ts";
import { captureLog, testConfig, waitFor } from "./_helpers.ts";
import type { FakeChat } from "../testing/fake_chat.ts";

/** The bounded wait of tests/_helpers.ts, for the delivery tests that import it from here. */
export { waitFor };

/** The super admin of the delivery tests. */
export const OPERATOR = { userId: "900", login: "operator" };

/** A tiny retry schedule, so tests run in milliseconds. */
export const TEST_BACKOFF_MS = [20, 40, 60];

/** Settings that make button presses reach the app: Discord interactions and Telegram's webhook. */
export const BUTTONS_ENV: Record<string, string> = {
  DISCORD_APPLICATION_ID: "1000",
  DISCORD_PUBLIC_KEY: "a".repeat(64),
  TELEGRAM_WEBHOOK_SECRET: "buttons_secret",
};

/** Settings with sending configured against the fakes. */
export function deliveryConfig(
  fakes: { discord?: Pick<FakeChat, "url">; telegram?: Pick<FakeChat, "url"> },
  env: Record<string, string> = {},
): Config {
  return testConfig({
    ...(fakes.discord
      ? { DISCORD_BOT_TOKEN: "test-bot-token", DISCORD_API_URL: fakes.discord.url }
      : {}),
    ...(fakes.telegram
      ? { TELEGRAM_BOT_TOKEN: "123456:test-token", TELEGRAM_API_URL: fakes.telegram.url }
      : {}),
    ...env,
  });
}

/** Telegram limits scaled down 100 times. */
export const FAST_TELEGRAM = {
  chatIntervalMs: 10,
  groupMax: 20,
  groupWindowMs: 600,
  globalMax: 30,
  globalWindowMs: 10,
};

/**
 * A Telegram pacer that remembers, per chat, the time it let each message go. A fake Telegram
 * given {@link SchedulePacer.sentAt} judges its limits by that schedule rather than by arrival,
 * so a loaded machine delaying a request between the pacer and the fake cannot cause a 429 the
 * pacer did not.
 */
export class SchedulePacer extends TelegramPacer {
  readonly #scheduled = new Map<string, number[]>();
  readonly #clock: { now: number };
  #granted = 0;

  constructor(limits: TelegramLimits) {
    const clock = { now: 0 };
    super({ limits, now: () => clock.now = Date.now() });
    this.#clock = clock;
  }

  /** Reserves as the pacer does and records the granted time (the clock read by this call). */
  override reserve(chatId: string, maxWaitMs: number): ReturnType<TelegramPacer["reserve"]> {
    const reservation = super.reserve(chatId, maxWaitMs);
    if (reservation.granted) {
      this.#granted++;
      const times = this.#scheduled.get(chatId) ?? [];
      times.push(this.#clock.now + reservation.waitMs);
      this.#scheduled.set(chatId, times);
    }
    return reservation;
  }

  /** The oldest scheduled time of `chatId` not yet claimed by a request (lanes send in order). */
  readonly sentAt = (chatId: string): number | undefined => this.#scheduled.get(chatId)?.shift();

  /** How many messages the pacer let go. */
  granted(): number {
    return this.#granted;
  }
}

/** A delivery worker with a job worker on `kv`; dispose it with `await using`. */
export interface RunningWorker extends AsyncDisposable {
  worker: DeliveryWorker;
  lines: Record<string, unknown>[];
  /** Stops taking messages and waits for running handlers. */
  stop(): Promise<void>;
}

/** Starts the delivery worker with test-scale timings (overridable). */
export function runWorker(
  kv: Kv,
  config: Config,
  options: Partial<Parameters<typeof createDeliveryWorker>[0]> = {},
): RunningWorker {
  const { log, lines } = captureLog();
  const worker = createDeliveryWorker({
    kv,
    config,
    log,
    backoffMs: TEST_BACKOFF_MS,
    leaseMs: 2_000,
    maxSleepMs: 50,
    sweepEveryMs: 0,
    stallMs: 1_000,
    limiters: {
      discord: new DiscordRateLimiter(),
      telegram: new TelegramPacer({ limits: FAST_TELEGRAM }),
    },
    ...options,
  });
  const queue = startQueueWorker(kv, worker.handlers, log);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await queue.drain(5_000);
    await worker.close();
  };
  return { worker, lines, stop, [Symbol.asyncDispose]: stop };
}

/** Stores groups (by id, with `owners` when given), allows each group the targets of its routes, and the routes. */
export async function storeRoutes(
  kv: Kv,
  routes: Route[],
  owners?: string[],
): Promise<void> {
  for (const groupId of new Set(routes.map((route) => route.groupId))) {
    await putGroup(kv, {
      id: groupId,
      name: groupId,
      members: [{ userId: "1", login: "owner", role: "owner" }],
      ...(owners ? { owners } : {}),
    });
    const targets = routes.filter((route) => route.groupId === groupId).flatMap((r) => r.targets);
    assert.ok((await allowTargets(kv, groupId, targets, OPERATOR, "admin")).ok);
  }
  const result = await replaceRoutes(kv, routes);
  assert.ok(result.ok);
}

/** A route of group `team` sending every custom event to `targets`. */
export function customRoute(id: string, targets: Target[], groupId = "team"): Route {
  return {
    id,
    name: id,
    enabled: true,
    groupId,
    filters: [{ type: "event", value: "custom" }],
    targets,
  };
}

/** Accepts a custom event through the store (as the ingress does); returns its event id. */
export async function acceptCustom(
  kv: Kv,
  title: string,
  deliveryId?: string,
): Promise<string> {
  const outcome = await saveEvent(kv, {
    provider: "custom",
    kind: "custom",
    deliveryId,
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify({ message: { title, text: `about ${title}` } })),
  });
  assert.equal(outcome.status, "accepted");
  return outcome.status === "accepted" ? outcome.eventId : "";
}

/** The send logs of an event (its delivery id is the event id when the sender gave none). */
export function logsOf(kv: Kv, deliveryId: string): Promise<SendLog[]> {
  return listDeliveryLogs(kv, deliveryId);
}

/** Waits until every unit of a delivery is final; returns the logs. */
export async function settled(kv: Kv, deliveryId: string, units = 1): Promise<SendLog[]> {
  let logs: SendLog[] = [];
  await waitFor(`delivery ${deliveryId} to settle`, async () => {
    logs = await logsOf(kv, deliveryId);
    return logs.length === units && logs.every((log) => log.status !== "retrying");
  });
  return logs;
}

/** Waits until the job worker has run every job there is: none is left, due or claimed. */
export async function jobsDone(kv: Kv, timeoutMs?: number): Promise<void> {
  await waitFor("the jobs to finish", async () => (await listJobs(kv)).length === 0, timeoutMs);
}

/** Titles of the embeds a fake Discord received, in order. */
export function discordTitles(fake: FakeChat, channel?: string): string[] {
  return fake.received
    .filter((message) => channel === undefined || message.chat === channel)
    .map((message) => (message.body.embeds as { title: string }[])[0].title);
}
