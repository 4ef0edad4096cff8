/**
 * Telegram pacing, in process (Telegram publishes no rate-limit headers): at
 * most one message per second to a chat, 20 per minute to a group chat (one
 * every 3 s), and 30 per second overall, spread evenly. A 429's `retry_after`
 * holds the chat back for that long. An answer to a button press (the pressed
 * message's new buttons, `answerCallbackQuery`) is no message sent: it counts
 * against the overall limit and waits out a chat's hold, but not the chat's
 * message spacing. A reply to a person's command is a message sent while the
 * person waits: it waits out a hold and the overall limit but not the chat's
 * spacing (Telegram's per-chat limits allow short bursts, and replies come only
 * as fast as people send commands), and the chat's next delivered message is
 * spaced from it. A read (`getChatMember`, `getMe`) counts
 * against the overall limit only.
 */
import { EvenPace, type Reservation } from "../platform/even_pace.ts";
import type { LanePace } from "../platform/lane_pace.ts";

/** The limits the pacer keeps. */
export interface TelegramLimits {
  /** Least time between two messages to one chat. */
  chatIntervalMs: number;
  /** At most `groupMax` messages per `groupWindowMs` to one group chat. */
  groupMax: number;
  groupWindowMs: number;
  /** At most `globalMax` messages per `globalWindowMs` overall. */
  globalMax: number;
  globalWindowMs: number;
}

/** Telegram's published limits. */
export const TELEGRAM_LIMITS: TelegramLimits = {
  chatIntervalMs: 1000,
  groupMax: 20,
  groupWindowMs: 60_000,
  globalMax: 30,
  globalWindowMs: 1000,
};

/** Group and channel chats have negative ids or are named by `@username`. */
function isGroupChat(chatId: string): boolean {
  return chatId.startsWith("-") || chatId.startsWith("@");
}

/** Paces one bot's messages in one process. */
export class TelegramPacer {
  readonly #limits: TelegramLimits;
  readonly #global: EvenPace;
  readonly #nextAt = new Map<string, number>();
  /** Until when a 429 holds each chat back. */
  readonly #heldUntil = new Map<string, number>();
  readonly #now: () => number;

  /** A pacer with the given limits and clock. */
  constructor(options: { limits?: TelegramLimits; now?: () => number } = {}) {
    this.#limits = options.limits ?? TELEGRAM_LIMITS;
    this.#global = new EvenPace(this.#limits.globalMax, this.#limits.globalWindowMs);
    this.#now = options.now ?? Date.now;
  }

  #intervalFor(chatId: string): number {
    const { chatIntervalMs, groupMax, groupWindowMs } = this.#limits;
    return isGroupChat(chatId)
      ? Math.max(chatIntervalMs, groupWindowMs / groupMax)
      : chatIntervalMs;
  }

  /**
   * Reserves the next message to `chatId` if it may go within `maxWaitMs`;
   * either way answers how long until it may go.
   */
  reserve(chatId: string, maxWaitMs: number): Reservation {
    const now = this.#now();
    const start = Math.max(now, this.#nextAt.get(chatId) ?? 0);
    const reservation = this.#reserveGlobal(start, now, maxWaitMs);
    if (reservation.granted) {
      this.#nextAt.set(chatId, now + reservation.waitMs + this.#intervalFor(chatId));
    }
    return reservation;
  }

  /**
   * Reserves an answer to a button press in `chatId` (an edit of the pressed
   * message's buttons) if it may go within `maxWaitMs`: it waits for the
   * overall limit and for a hold a 429 put on the chat, not for the chat's
   * message spacing, which Telegram sets for messages sent.
   */
  reservePress(chatId: string, maxWaitMs: number): Reservation {
    const now = this.#now();
    return this.#reserveGlobal(Math.max(now, this.#heldUntilOf(chatId, now)), now, maxWaitMs);
  }

  /**
   * Reserves a reply to a person's command in `chatId` if it may go within
   * `maxWaitMs`: it waits for a hold a 429 put on the chat and for the overall
   * limit, not for the chat's spacing (a person waits for the answer, replies
   * come only as fast as people send commands, and Telegram allows short
   * bursts; a 429 they still meet holds the chat); the chat's next delivered
   * message is spaced from it.
   */
  reserveReply(chatId: string, maxWaitMs: number): Reservation {
    const now = this.#now();
    const start = Math.max(now, this.#heldUntilOf(chatId, now));
    const reservation = this.#reserveGlobal(start, now, maxWaitMs);
    if (reservation.granted) {
      const next = now + reservation.waitMs + this.#intervalFor(chatId);
      this.#nextAt.set(chatId, Math.max(this.#nextAt.get(chatId) ?? 0, next));
    }
    return reservation;
  }

  /**
   * Reserves an answer to a button press (`answerCallbackQuery`) if it may go within
   * `maxWaitMs`: it posts nothing in a chat, so only the bot-wide budget applies, even while a
   * 429 holds the pressed message's chat.
   */
  reserveAnswer(maxWaitMs: number): Reservation {
    const now = this.#now();
    return this.#reserveGlobal(now, now, maxWaitMs);
  }

  /** Reserves a read (a chat member, the bot itself) against the overall limit only. */
  reserveRead(maxWaitMs: number): Reservation {
    const now = this.#now();
    return this.#reserveGlobal(now, now, maxWaitMs);
  }

  /** Until when a 429 holds `chatId` back (past holds are forgotten). */
  #heldUntilOf(chatId: string, now: number): number {
    const heldUntil = this.#heldUntil.get(chatId) ?? 0;
    if (heldUntil <= now) this.#heldUntil.delete(chatId);
    return heldUntil;
  }

  /** Reserves the overall limit's earliest time from `start` if it is within `maxWaitMs`. */
  #reserveGlobal(start: number, now: number, maxWaitMs: number): Reservation {
    const waitMs = Math.max(0, this.#global.earliest(start) - now);
    if (waitMs > maxWaitMs) return { granted: false, waitMs };
    this.#global.take(start, now);
    return { granted: true, waitMs };
  }

  /**
   * Notes that a message to `chatId` is leaving now: the chat's next message
   * is spaced from this moment, not from the reserved one, so a late send
   * never lets the next one come too close.
   */
  sending(chatId: string): void {
    const next = this.#now() + this.#intervalFor(chatId);
    this.#nextAt.set(chatId, Math.max(this.#nextAt.get(chatId) ?? 0, next));
  }

  /** Keeps an even share of the overall limit when `instances` instances send for the bot. */
  shareGlobal(instances: number): void {
    this.#global.share(instances);
  }

  /** When the chat's next message may go, for the lane's next owner (null when unknown). */
  paceOf(chatId: string): LanePace | null {
    const nextAt = this.#nextAt.get(chatId);
    return nextAt === undefined ? null : { notBefore: nextAt };
  }

  /** Takes on the pace a previous owner of the chat's lane left. */
  adopt(chatId: string, pace: LanePace): void {
    this.#nextAt.set(chatId, Math.max(this.#nextAt.get(chatId) ?? 0, pace.notBefore));
  }

  /**
   * Learns from an answer of `chatId` ("" for a call about no chat): a 429 holds the chat back
   * for the wait it asks.
   */
  observe(chatId: string, answer: { kind: string; retryAfterMs?: number }): void {
    if (chatId !== "" && answer.kind === "rate_limited" && answer.retryAfterMs !== undefined) {
      this.holdChat(chatId, answer.retryAfterMs);
    }
  }

  /** Holds a chat back for `retryAfterMs` after a 429. */
  holdChat(chatId: string, retryAfterMs: number): void {
    const until = this.#now() + retryAfterMs;
    this.#nextAt.set(chatId, Math.max(this.#nextAt.get(chatId) ?? 0, until));
    this.#heldUntil.set(chatId, Math.max(this.#heldUntil.get(chatId) ?? 0, until));
  }
}
