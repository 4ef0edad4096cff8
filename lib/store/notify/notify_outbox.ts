/**
 * Personal notifications on their way to one chat account (`docs/personal.md`): each is
 * held under the account, and a `notify_flush` job sends what is held as one message (or one
 * digest of several). The account's state says when it was last sent to and when its flush is
 * due; every hold and every flush is one checked commit on that state, so a notification held
 * while a flush runs is never left without a flush to send it, and a hold and its job are
 * written together (nothing is lost on a restart). What a message carried is marked as soon as
 * it is sent, so a flush run again never sends it twice.
 */
import type { Kv, KvEntryMaybe } from "../backend/types.ts";
import type { Platform } from "../../types.ts";
import { addJob } from "../delivery/jobs.ts";
import {
  notifyHeldKey,
  notifyHeldOnceKey,
  notifyHeldPrefix,
  notifyInboxKey,
  notifySentKey,
} from "../keys.ts";
import type { NotifyKind } from "./notify_settings.ts";

/** The job that sends what is held for one chat account. */
export interface NotifyFlushJob {
  type: "notify_flush";
  platform: Platform;
  chatUserId: string;
}

/** Whether a job message is a well-formed {@link NotifyFlushJob}. */
export function isNotifyFlushJob(message: unknown): message is NotifyFlushJob {
  const job = message as Partial<NotifyFlushJob> | null;
  return job?.type === "notify_flush" &&
    (job.platform === "discord" || job.platform === "telegram") &&
    typeof job.chatUserId === "string" && /^\d{1,20}$/.test(job.chatUserId);
}

/** One notification waiting to be sent. */
export interface HeldNotification {
  eventId: string;
  /** What it is about; `relink` tells the person their token stopped working. */
  kind: NotifyKind | "relink";
  /** Why the person gets it, in words ("Review requested from you"). */
  reason: string;
  title: string;
  url?: string;
  /** `owner/name`. */
  repository: string;
  /** The GitHub user the chat account is linked to. */
  userId: string;
  /** A group the event reached through its binding, and a route of it (for the buttons). */
  groupId: string;
  routeId: string;
}

/** A chat account's delivery state. */
export interface InboxState {
  /** Grows with every hold and flush, so each checked commit sees the other's writes. */
  seq: number;
  /** When the last message was sent (Unix ms), or null. */
  lastSentAt: number | null;
  /** When the pending flush job is due, or null when none is pending. */
  flushDueAt: number | null;
  /** Whether the account was already told how to change what it gets. */
  introduced: boolean;
}

const EMPTY: InboxState = { seq: 0, lastSentAt: null, flushDueAt: null, introduced: false };

/** How long the "held once" mark of an event is kept: a day. */
export const HELD_ONCE_MS = 24 * 60 * 60 * 1000;

/** Most notifications one flush sends. */
const MAX_PER_FLUSH = 20;

/** The chat account's state and its entry (for a checked commit). */
export async function readInbox(
  kv: Kv,
  platform: Platform,
  chatUserId: string,
): Promise<{ state: InboxState; entry: KvEntryMaybe<InboxState> }> {
  const entry = await kv.get<InboxState>(notifyInboxKey(platform, chatUserId));
  return { state: { ...EMPTY, ...entry.value }, entry };
}

/**
 * Holds `item` for the chat account, once per event, and when no flush is pending adds one due
 * at `dueAt(state)` (Unix ms, on the caller's clock, which reads `now`) in the same commit.
 * False when the event was already held for it.
 */
export async function holdNotification(
  kv: Kv,
  platform: Platform,
  chatUserId: string,
  item: HeldNotification,
  dueAt: (state: InboxState) => number,
  now: number,
): Promise<boolean> {
  const once = notifyHeldOnceKey(platform, chatUserId, item.eventId);
  for (let attempt = 0; attempt < 10; attempt++) {
    const { state, entry } = await readInbox(kv, platform, chatUserId);
    const next: InboxState = { ...state, seq: state.seq + 1 };
    const op = kv.atomic().check(entry).check({ key: once, versionstamp: null })
      .set(once, true, { expireIn: HELD_ONCE_MS })
      .set(notifyHeldKey(platform, chatUserId, item.eventId), item);
    if (state.flushDueAt === null) {
      next.flushDueAt = dueAt(state);
      addJob(op, { type: "notify_flush", platform, chatUserId } satisfies NotifyFlushJob, {
        delayMs: next.flushDueAt - now,
      });
    }
    if ((await op.set(notifyInboxKey(platform, chatUserId), next).commit()).ok) return true;
    if ((await kv.get(once)).versionstamp !== null) return false;
  }
  throw new Error("Cannot hold a notification: the chat account's state kept changing");
}

/** What is held for the chat account, oldest first, at most {@link MAX_PER_FLUSH}. */
export async function listHeld(
  kv: Kv,
  platform: Platform,
  chatUserId: string,
): Promise<HeldNotification[]> {
  const entries = kv.list<HeldNotification>(
    { prefix: notifyHeldPrefix(platform, chatUserId) },
    { limit: MAX_PER_FLUSH },
  );
  return (await Array.fromAsync(entries)).map((entry) => entry.value);
}

/**
 * Records that a message carrying `eventIds` was sent to the chat account, before its flush
 * settles: a flush job run again (it died, or could not settle) removes them without sending.
 */
export async function markSent(
  kv: Kv,
  platform: Platform,
  chatUserId: string,
  eventIds: readonly string[],
): Promise<void> {
  await kv.set(notifySentKey(platform, chatUserId), [...eventIds], { expireIn: HELD_ONCE_MS });
}

/** The events of the last message sent to the chat account (see {@link markSent}). */
export async function lastSent(
  kv: Kv,
  platform: Platform,
  chatUserId: string,
): Promise<Set<string>> {
  const value = (await kv.get<unknown>(notifySentKey(platform, chatUserId))).value;
  return new Set(Array.isArray(value) ? value.filter((id) => typeof id === "string") : []);
}

/** How a flush ends. */
interface FlushEnd {
  /** The notifications it sent (or dropped), removed from the held ones. */
  done: readonly HeldNotification[];
  /** When something was sent (Unix ms), or null when nothing was. */
  sentAt: number | null;
  /** When the next flush is due, or null for none. */
  nextDueAt: number | null;
  /** The caller's clock now (due times are on it). */
  now: number;
}

/**
 * Ends a flush in one commit checked against `entry` (the state it began with): removes what
 * it sent, records when, and adds the next flush job when `nextDueAt` is given. False when the
 * state changed meanwhile (a notification was held): the flush reads again.
 */
export async function finishFlush(
  kv: Kv,
  platform: Platform,
  chatUserId: string,
  entry: KvEntryMaybe<InboxState>,
  end: FlushEnd,
): Promise<boolean> {
  const state: InboxState = { ...EMPTY, ...entry.value };
  const next: InboxState = {
    seq: state.seq + 1,
    lastSentAt: end.sentAt ?? state.lastSentAt,
    flushDueAt: end.nextDueAt,
    introduced: state.introduced || end.sentAt !== null,
  };
  const op = kv.atomic().check(entry).set(notifyInboxKey(platform, chatUserId), next);
  for (const item of end.done) op.delete(notifyHeldKey(platform, chatUserId, item.eventId));
  if (end.nextDueAt !== null) {
    addJob(op, { type: "notify_flush", platform, chatUserId } satisfies NotifyFlushJob, {
      delayMs: end.nextDueAt - end.now,
    });
  }
  return (await op.commit()).ok;
}
