/**
 * The platform side of a delivery unit: whether the platform is configured,
 * its rate limiter, and the call that sends a rendered body to a target.
 */
import type { Config } from "../config.ts";
import { FEATURES } from "../config.ts";
import { DiscordRateLimiter } from "../discord/rate_limit.ts";
import { sendDiscordMessage } from "../discord/send.ts";
import type { DiscordMessageBody } from "../format/discord.ts";
import type { TelegramMessageBody } from "../format/telegram.ts";
import { TelegramPacer } from "../telegram/pacer.ts";
import { sendTelegramMessage } from "../telegram/send.ts";
import type { SendLog } from "../store/send_logs.ts";
import type { Target } from "../types.ts";
import type { Reservation } from "../platform/even_pace.ts";
import type { LanePace } from "../platform/lane_pace.ts";
import type { SendResult } from "../platform/send_result.ts";
import type { EditResult } from "../platform/edit_result.ts";
import { type DiscordEditResult, editDiscordMessage } from "../discord/edit.ts";
import { editTelegramMessage } from "../telegram/edit.ts";
import { discordNonceFor } from "./targets.ts";

/** One platform's sending capability. */
export interface PlatformSender {
  /** Why nothing can be sent (the platform is not configured), or null. */
  unavailable(): string | null;
  /** Reserves the next call to `target` if it may go within `maxWaitMs`. */
  reserve(target: Target, maxWaitMs: number): Reservation;
  /**
   * Sends `body` to `target` for the unit `logId`; the limiter learns from the answer. `unit`
   * is the unit's send log when the caller has it at hand (noise control reads it otherwise).
   */
  send(logId: string, target: Target, body: unknown, unit?: SendLog): Promise<SendResult>;
  /** Edits the message `messageId` in `target` to `body` (edit in place); paced like a send. */
  edit(target: Target, messageId: string, body: unknown): Promise<EditResult>;
  /** The target's rate-limit state, for the next owner of its lane. */
  paceOf(target: Target): LanePace | null;
  /** Takes on the rate-limit state the previous owner of the target's lane left. */
  adopt(target: Target, pace: LanePace): void;
  /** Keeps an even share of the bot-wide limit among `instances` instances. */
  shareGlobal(instances: number): void;
}

/** The rate limiters of the senders (tests and the benchmark pass scaled ones). */
export interface Limiters {
  discord?: DiscordRateLimiter;
  telegram?: TelegramPacer;
}

function discordSender(config: Config, limiter: DiscordRateLimiter): PlatformSender {
  const channelOf = (target: Target) =>
    target.platform === "discord" ? target.threadId ?? target.channelId : "";
  const observe = (channelId: string, result: DiscordEditResult) =>
    limiter.observe(
      channelId,
      result.kind === "rate_limited"
        ? {
          kind: "rate_limited",
          retryAfterMs: result.retryAfterMs,
          global: result.global,
          rateLimit: result.rateLimit,
        }
        : { kind: "answer", rateLimit: result.rateLimit },
    );
  return {
    unavailable: () =>
      FEATURES.Discord(config) ? null : "Discord is not configured: DISCORD_BOT_TOKEN is not set",
    reserve: (target, maxWaitMs) => limiter.reserve(channelOf(target), maxWaitMs),
    paceOf: (target) => limiter.paceOf(channelOf(target)),
    adopt: (target, pace) => limiter.adopt(channelOf(target), pace),
    shareGlobal: (instances) => limiter.shareGlobal(instances),
    async send(logId, target, body) {
      const channelId = channelOf(target);
      const result = await sendDiscordMessage(
        config.discord,
        channelId,
        body as DiscordMessageBody,
        await discordNonceFor(logId),
      );
      observe(channelId, result);
      return result;
    },
    async edit(target, messageId, body) {
      const channelId = channelOf(target);
      const result = await editDiscordMessage(
        config.discord,
        channelId,
        messageId,
        body as DiscordMessageBody,
      );
      observe(channelId, result);
      return result;
    },
  };
}

function telegramSender(config: Config, pacer: TelegramPacer): PlatformSender {
  const chatOf = (target: Target) => target.platform === "telegram" ? target.chatId : "";
  return {
    unavailable: () =>
      FEATURES.Telegram(config)
        ? null
        : "Telegram is not configured: TELEGRAM_BOT_TOKEN is not set",
    reserve: (target, maxWaitMs) => pacer.reserve(chatOf(target), maxWaitMs),
    paceOf: (target) => pacer.paceOf(chatOf(target)),
    adopt: (target, pace) => pacer.adopt(chatOf(target), pace),
    shareGlobal: (instances) => pacer.shareGlobal(instances),
    async send(_logId, target, body) {
      if (target.platform !== "telegram") {
        return { kind: "rejected", httpStatus: 400, error: "not a Telegram target" };
      }
      pacer.sending(target.chatId);
      const result = await sendTelegramMessage(
        config.telegram,
        target,
        body as TelegramMessageBody,
      );
      if (result.kind === "rate_limited") pacer.holdChat(target.chatId, result.retryAfterMs);
      return result;
    },
    async edit(target, messageId, body) {
      if (target.platform !== "telegram") {
        return { kind: "rejected", httpStatus: 400, error: "not a Telegram target" };
      }
      pacer.sending(target.chatId);
      const result = await editTelegramMessage(
        config.telegram,
        target.chatId,
        messageId,
        body as TelegramMessageBody,
      );
      if (result.kind === "rate_limited") pacer.holdChat(target.chatId, result.retryAfterMs);
      return result;
    },
  };
}

/** The senders by platform name. */
export function createSenders(
  config: Config,
  limiters: Limiters = {},
): Record<string, PlatformSender> {
  return {
    discord: discordSender(config, limiters.discord ?? new DiscordRateLimiter()),
    telegram: telegramSender(config, limiters.telegram ?? new TelegramPacer()),
  };
}
