/**
 * The personal-notification jobs (`docs/personal.md`):
 *
 * - `notify_event` (queued once per accepted event by delivery): finds who the event concerns
 *   (`recipients.ts`) and holds one notification for each of their chat accounts, with a flush
 *   due when the short gather window it opens ends, at the end of a window after their last
 *   message, or when their quiet hours end.
 * - `notify_flush`: sends what is held for one chat account as one message, or one digest of
 *   several; quiet hours or a rate limit move it later.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { Adapters } from "../delivery/adapters.ts";
import { storedUserToken } from "../auth/user_tokens.ts";
import { formatEvent } from "../format/mod.ts";
import { loadEvent } from "../store/delivery/events.ts";
import { repositoryOf } from "../store/delivery/event_routes.ts";
import { getGroup } from "../store/config/groups.ts";
import type { QueueHandler } from "../delivery/job_worker.ts";
import { claimRelinkNotice, savePullHead } from "../store/notify/notify_cache.ts";
import { isNotifyEventJob, type NotifyEventJob } from "../store/notify/notify_jobs.ts";
import {
  finishFlush,
  type HeldNotification,
  holdNotification,
  type InboxState,
  isNotifyFlushJob,
  lastSent,
  listHeld,
  type NotifyFlushJob,
  readInbox,
} from "../store/notify/notify_outbox.ts";
import { getNotifySettings, type PersonalQuietHours } from "../store/notify/notify_settings.ts";
import type { NotifyContext } from "./context.ts";
import { quietEndsAt } from "./quiet.ts";
import { recipientsOf } from "./recipients.ts";
import { sendPersonal } from "./send.ts";
import { pullHeadOf, triggersOf } from "./triggers.ts";

/**
 * When a flush held at `now` is due for an account in `state` with `quiet` hours: when they
 * end; else a window after the last message while that window lasts; else once the gather
 * window that this notification opens ends, so a burst goes as one message.
 */
function dueAt(
  ctx: NotifyContext,
  state: InboxState,
  quiet: PersonalQuietHours | null,
  now: number,
): number {
  const quietEnd = quietEndsAt(quiet, now);
  if (quietEnd !== null) return quietEnd;
  const windowEnd = state.lastSentAt === null ? null : state.lastSentAt + ctx.windowMs;
  return windowEnd !== null && windowEnd > now ? windowEnd : now + ctx.gatherMs;
}

/** Runs a `notify_event` job; returns how many notifications it held. */
async function notifyEvent(ctx: NotifyContext, job: NotifyEventJob): Promise<number> {
  const event = await loadEvent(ctx.kv, job.eventId);
  if (!event) return 0;
  const head = pullHeadOf(event);
  if (head) await savePullHead(ctx.kv, head.repository, head.sha, head.login);
  const triggers = triggersOf(event);
  const repository = repositoryOf(event);
  if (triggers.length === 0 || !repository) return 0;
  const group = await getGroup(ctx.kv, job.groupId);
  const message = formatEvent(event);
  let held = 0;
  for (const recipient of await recipientsOf(ctx, event, repository, triggers, group)) {
    const { account } = recipient;
    const base = {
      eventId: event.id,
      repository,
      userId: account.userId,
      groupId: job.groupId,
      routeId: job.routeId,
    };
    let item: HeldNotification;
    let quiet: PersonalQuietHours | null = null;
    if ("relink" in recipient) {
      const token = await storedUserToken(ctx, account.userId);
      if (!await claimRelinkNotice(ctx.kv, account.userId, token?.versionstamp ?? "none")) {
        continue;
      }
      item = { ...base, kind: "relink", reason: "Link again", title: "Link again" };
    } else {
      quiet = recipient.settings.quietHours;
      item = {
        ...base,
        kind: recipient.trigger.kind,
        reason: recipient.trigger.reason,
        title: message?.title ?? repository,
        ...(message?.url ? { url: message.url } : {}),
      };
    }
    const now = ctx.now();
    const added = await holdNotification(
      ctx.kv,
      account.platform,
      account.chatUserId,
      item,
      (state) => dueAt(ctx, state, quiet, now),
      now,
    );
    if (added) held++;
  }
  if (held > 0) ctx.log.info("personal notifications held", { eventId: event.id, held });
  return held;
}

/** Sends what is held for one chat account (see the module comment). */
async function notifyFlush(ctx: NotifyContext, job: NotifyFlushJob): Promise<void> {
  const { platform, chatUserId } = job;
  const { state, entry } = await readInbox(ctx.kv, platform, chatUserId);
  const held = await listHeld(ctx.kv, platform, chatUserId);
  const now = ctx.now();
  const sent = await lastSent(ctx.kv, platform, chatUserId);
  const unsettled = held.filter((item) => sent.has(item.eventId));
  if (unsettled.length > 0) return await settle(ctx, job, unsettled, now); // sent, not settled
  const settings = held.length > 0 ? await getNotifySettings(ctx.kv, held[0].userId) : null;
  const wanted = held.filter((item) =>
    item.kind === "relink" || (settings && !settings.paused && settings.kinds[item.kind])
  );
  const later = (at: number) =>
    finishFlush(ctx.kv, platform, chatUserId, entry, {
      done: [],
      sentAt: null,
      nextDueAt: at,
      now,
    });
  if (wanted.length > 0) {
    const quietEnd = quietEndsAt(settings?.quietHours ?? null, now);
    if (quietEnd !== null) {
      if (!await later(quietEnd)) await notifyFlush(ctx, job);
      return;
    }
    const result = await sendPersonal(ctx, platform, chatUserId, wanted, !state.introduced);
    if (result.kind === "rate_limited") {
      if (!await later(now + result.retryAfterMs)) await notifyFlush(ctx, job);
      return;
    }
    if (result.kind === "retryable") throw new Error(`personal message not sent: ${result.error}`);
    if (result.kind === "rejected") {
      ctx.log.warn("personal message refused", { platform, error: result.error });
    }
    return await settle(ctx, job, held, result.kind === "sent" ? now : null);
  }
  await settle(ctx, job, held, null);
}

/**
 * Removes what a flush handled and records when it sent; another flush is due a window later
 * when more was held meanwhile. Retried until the commit holds, never sending again.
 */
async function settle(
  ctx: NotifyContext,
  job: NotifyFlushJob,
  done: readonly HeldNotification[],
  sentAt: number | null,
): Promise<void> {
  const handled = new Set(done.map((item) => item.eventId));
  for (let attempt = 0; attempt < 10; attempt++) {
    const { entry } = await readInbox(ctx.kv, job.platform, job.chatUserId);
    const rest = (await listHeld(ctx.kv, job.platform, job.chatUserId))
      .filter((item) => !handled.has(item.eventId));
    const nextDueAt = rest.length === 0 ? null : (sentAt ?? ctx.now()) + ctx.windowMs;
    const end = { done, sentAt, nextDueAt, now: ctx.now() };
    if (await finishFlush(ctx.kv, job.platform, job.chatUserId, entry, end)) return;
  }
  throw new Error("Cannot finish a personal-notification flush: the state kept changing");
}

/** What the job handlers need; everything but `kv`, `config`, `log` and `adapters` has a default. */
interface NotifyOptions {
  kv: Kv;
  config: Config;
  log: Logger;
  adapters: Adapters;
  windowMs?: number;
  gatherMs?: number;
  maxSleepMs?: number;
  now?: () => number;
}

const WINDOW_MS = 60_000;
/** How long the first notification for a chat account waits for others to go with it. */
const GATHER_MS = 10_000;
const MAX_SLEEP_MS = 1_000;

/** The `notify_event` and `notify_flush` job handlers. */
export function notifyHandlers(options: NotifyOptions): Record<string, QueueHandler> {
  const ctx: NotifyContext = {
    kv: options.kv,
    config: options.config,
    log: options.log,
    adapters: options.adapters,
    windowMs: options.windowMs ?? WINDOW_MS,
    gatherMs: options.gatherMs ?? GATHER_MS,
    maxSleepMs: options.maxSleepMs ?? MAX_SLEEP_MS,
    now: options.now ?? Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  return {
    async notify_event(message) {
      if (!isNotifyEventJob(message)) return ctx.log.error("malformed notify job dropped", {});
      await notifyEvent(ctx, message);
    },
    async notify_flush(message) {
      if (!isNotifyFlushJob(message)) return ctx.log.error("malformed flush job dropped", {});
      await notifyFlush(ctx, message);
    },
  };
}
