/**
 * Editing a message the bot sent (`editMessageText`): the HTML text and the inline keyboard are
 * replaced together (no keyboard clears it). "Message is not modified" counts as done; a message
 * Telegram no longer has, or will not edit, is `gone`, so the caller posts a new one. Also
 * replacing only its buttons (`editMessageReplyMarkup`, answering a press on them), and
 * deleting a message (`deleteMessage`).
 */
import type { InlineKeyboardMarkup } from "@grammyjs/types";
import type { TelegramMessageBody } from "../format/telegram.ts";
import type { EditResult } from "../platform/edit_result.ts";
import type { SendResult } from "../platform/send_result.ts";
import type { CallOutcome } from "../http_client.ts";
import { callTelegram, type TelegramSettings } from "./api.ts";
import { telegramResultOf } from "./send.ts";

const NOT_MODIFIED = /message is not modified/i;
const GONE =
  /message to edit not found|message to delete not found|message can't be edited|message_id_invalid/i;

/** Deletes the message `messageId` in `chatId`; one already gone counts as deleted. */
export async function deleteTelegramMessage(
  settings: TelegramSettings,
  chatId: string,
  messageId: string,
): Promise<SendResult> {
  if (!/^\d{1,15}$/.test(messageId)) {
    return { kind: "rejected", httpStatus: 400, error: "not a Telegram message id" };
  }
  const outcome = await callTelegram<boolean>(
    settings,
    "deleteMessage",
    { chat_id: chatId, message_id: Number(messageId) },
  );
  if (outcome.kind === "refused" && outcome.status === 400 && GONE.test(outcome.message)) {
    return { kind: "sent", httpStatus: 400 };
  }
  return telegramResultOf(outcome as CallOutcome<{ message_id?: number }>);
}

/**
 * Replaces only the buttons of the message `messageId` in `chatId` with `buttons`, answering
 * every refusal as it came (a numeric chat id is sent as the number a press's update carried).
 */
export async function editTelegramButtons(
  settings: TelegramSettings,
  chatId: string,
  messageId: string,
  buttons: InlineKeyboardMarkup,
): Promise<SendResult> {
  if (!/^\d{1,15}$/.test(messageId)) {
    return { kind: "rejected", httpStatus: 400, error: "not a Telegram message id" };
  }
  return telegramResultOf(
    await callTelegram<{ message_id?: number }>(settings, "editMessageReplyMarkup", {
      chat_id: /^-?\d{1,15}$/.test(chatId) ? Number(chatId) : chatId,
      message_id: Number(messageId),
      reply_markup: buttons,
    }),
  );
}

/** Replaces the text and buttons of the message `messageId` in `chatId` with `body`. */
export async function editTelegramMessage(
  settings: TelegramSettings,
  chatId: string,
  messageId: string,
  body: TelegramMessageBody,
): Promise<EditResult> {
  if (!/^\d{1,15}$/.test(messageId)) {
    return { kind: "gone", httpStatus: 400, error: "not a Telegram message id" };
  }
  const outcome = await callTelegram<{ message_id?: number }>(
    settings,
    "editMessageText",
    {
      chat_id: chatId,
      message_id: Number(messageId),
      text: body.text,
      parse_mode: body.parse_mode,
      link_preview_options: { is_disabled: true },
      reply_markup: body.reply_markup ?? { inline_keyboard: [] },
    },
  );
  if (outcome.kind === "refused" && outcome.status === 400) {
    if (NOT_MODIFIED.test(outcome.message)) {
      return { kind: "sent", httpStatus: 200, messageId };
    }
    if (GONE.test(outcome.message)) {
      return { kind: "gone", httpStatus: 400, error: outcome.message };
    }
  }
  const result = telegramResultOf(outcome);
  return result.kind === "sent" ? { ...result, messageId } : result;
}
