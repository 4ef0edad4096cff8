/**
 * Telegram as a chat platform (`lib/platform/adapter.ts`): a target posts into its chat (in its
 * topic when it names one); later events of a subject are replies to its card, as Telegram has
 * no threads to start; the pacer spaces every call from the moment it leaves and holds the chat
 * back for the wait a 429 asks for. An answer to a button press (its new buttons) is reserved
 * against the bot-wide limit only and observed like every call, and so are chat-ops' own calls,
 * each by its class (a command's reply, a press's answer, a read).
 */
import { type Config, FEATURES } from "../config.ts";
import type { InlineKeyboardMarkup } from "@grammyjs/types";
import type { TelegramMessageBody } from "../format/telegram.ts";
import type { CallOutcome } from "../http_client.ts";
import {
  type BotCall,
  type BotCallClass,
  type PlatformAdapter,
  wrongTarget,
} from "../platform/adapter.ts";
import type { Reservation } from "../platform/even_pace.ts";
import { type Pacing, waitForTurn } from "../platform/pacing.ts";
import type { SendResult } from "../platform/send_result.ts";
import type { EditResult } from "../platform/edit_result.ts";
import type { Target } from "../types.ts";
import { deleteTelegramMessage, editTelegramButtons, editTelegramMessage } from "./edit.ts";
import { TelegramPacer } from "./pacer.ts";
import { callTelegram } from "./api.ts";
import { sendTelegramMessage, telegramResultOf } from "./send.ts";

/** The chat a message to a Telegram target lands in ("" for another platform). */
function chatOf(target: Target): string {
  return target.platform === "telegram" ? target.chatId : "";
}

/** How `call` is reserved, by its class (see `TelegramPacer`). */
function reserveFor(
  pacer: TelegramPacer,
  call: BotCall,
): (maxWaitMs: number) => Reservation {
  const reservers: Record<BotCallClass, (maxWaitMs: number) => Reservation> = {
    reply: (maxWaitMs) => pacer.reserveReply(call.chatId, maxWaitMs),
    press: (maxWaitMs) => pacer.reserveAnswer(maxWaitMs),
    read: (maxWaitMs) => pacer.reserveRead(maxWaitMs),
  };
  return reservers[call.class];
}

/** Telegram's adapter, with `pacer` seeing every call. */
export function createTelegramAdapter(
  config: Config,
  pacer: TelegramPacer = new TelegramPacer(),
): PlatformAdapter {
  const settings = config.telegram;
  /** Makes `call` into `chatId` and lets the pacer learn from its answer. */
  const answered = async <R extends EditResult>(chatId: string, call: () => Promise<R>) => {
    const result = await call();
    pacer.observe(chatId, result);
    return result;
  };
  /** Makes `call` into `chatId`, spacing the chat's next message from now, observed. */
  const observed = <R extends EditResult>(chatId: string, call: () => Promise<R>) => {
    pacer.sending(chatId);
    return answered(chatId, call);
  };
  return {
    platform: "telegram",
    unavailable: () =>
      FEATURES.Telegram(config)
        ? null
        : "Telegram is not configured: set TELEGRAM_BOT_TOKEN and restart",
    channelOf: chatOf,
    placeOf: (target) =>
      target.platform === "telegram" && target.topicId !== undefined
        ? `${target.chatId}:${target.topicId}`
        : chatOf(target),
    threadStyle: () => "reply",
    inThread: (target) => target,
    asReply: (body, messageId) => ({
      ...body as object,
      reply_parameters: { message_id: Number(messageId), allow_sending_without_reply: true },
    }),
    reserve: (target, maxWaitMs) => pacer.reserve(chatOf(target), maxWaitMs),
    paceOf: (target) => pacer.paceOf(chatOf(target)),
    adopt: (target, pace) => pacer.adopt(chatOf(target), pace),
    shareGlobal: (instances) => pacer.shareGlobal(instances),
    directTarget: (userId) =>
      Promise.resolve(
        /^\d{1,20}$/.test(userId)
          ? { platform: "telegram", chatId: userId }
          : { kind: "rejected", httpStatus: 400, error: "not a Telegram user id" },
      ),
    parentOf: () => Promise.resolve({ kind: "none" }),
    async post(target, body): Promise<SendResult> {
      if (target.platform !== "telegram") return wrongTarget("Telegram");
      return await observed(
        target.chatId,
        () => sendTelegramMessage(settings, target, body as TelegramMessageBody),
      );
    },
    async edit(target, messageId, body) {
      if (target.platform !== "telegram") return wrongTarget("Telegram");
      return await observed(
        target.chatId,
        () => editTelegramMessage(settings, target.chatId, messageId, body as TelegramMessageBody),
      );
    },
    async delete(target, messageId) {
      if (target.platform !== "telegram") return wrongTarget("Telegram");
      return await observed(
        target.chatId,
        () => deleteTelegramMessage(settings, target.chatId, messageId),
      );
    },
    async editButtons(target, messageId, buttons, pacing) {
      if (target.platform !== "telegram") return wrongTarget("Telegram");
      const chatId = target.chatId;
      return await waitForTurn(pacing, (maxWaitMs) => pacer.reservePress(chatId, maxWaitMs)) ??
        await answered(
          chatId,
          () => editTelegramButtons(settings, chatId, messageId, buttons as InlineKeyboardMarkup),
        );
    },
    startThread: () => Promise.resolve(wrongTarget("Discord channel")),
    async botCall<T>(call: BotCall, pacing: Pacing): Promise<CallOutcome<T>> {
      if (await waitForTurn(pacing, reserveFor(pacer, call))) {
        const message = "waiting for the rate limit to make the next call";
        return { kind: "refused", status: 429, message, body: null, headers: new Headers() };
      }
      if (call.class === "reply") pacer.sending(call.chatId);
      const outcome = await callTelegram<T>(settings, call.method, call.body);
      pacer.observe(call.chatId, telegramResultOf(outcome as CallOutcome<{ message_id?: number }>));
      return outcome;
    },
  };
}
