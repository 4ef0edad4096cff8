/**
 * The Bot API calls chat-ops makes, typed with `@grammyjs/types`: answers in a chat (in the
 * topic of the message answered), private messages, callback answers, a member's status and
 * the bot's own name. Each answers a result value, never throws. A press's new buttons go
 * through the Telegram adapter instead (`press_buttons.ts`).
 */
import type { ChatMember, InlineKeyboardMarkup, Message, User } from "@grammyjs/types";
import type { CallOutcome } from "../../http_client.ts";
import { callTelegram, type TelegramSettings } from "../../telegram/api.ts";

/** Longest text a callback answer shows (Telegram's limit). */
const CALLBACK_TEXT_LIMIT = 200;

/** Longest text of a message (Telegram's limit). */
const MESSAGE_TEXT_LIMIT = 4096;

/** Where an answer goes: a chat, its forum topic, and the message it replies to. */
export interface ReplyPlace {
  chatId: number;
  /** The forum topic, only for messages in a topic. */
  threadId?: number;
  /** The message answered (shown as a reply when it still exists). */
  replyTo?: number;
}

/** Extra parts of a message: buttons, and HTML instead of plain text. */
interface MessageExtras {
  markup?: InlineKeyboardMarkup;
  html?: boolean;
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** The Bot API calls of one bot. */
export class TelegramBot {
  readonly #settings: TelegramSettings;

  /** A bot with `settings` (token and API address). */
  constructor(settings: TelegramSettings) {
    this.#settings = settings;
  }

  /** Sends `text` to `place` (link previews off). */
  send(place: ReplyPlace, text: string, extras: MessageExtras = {}): Promise<CallOutcome<Message>> {
    return callTelegram<Message>(this.#settings, "sendMessage", {
      chat_id: place.chatId,
      ...(place.threadId === undefined ? {} : { message_thread_id: place.threadId }),
      ...(place.replyTo === undefined
        ? {}
        : { reply_parameters: { message_id: place.replyTo, allow_sending_without_reply: true } }),
      text: cut(text, MESSAGE_TEXT_LIMIT),
      ...(extras.html ? { parse_mode: "HTML" } : {}),
      link_preview_options: { is_disabled: true },
      ...(extras.markup ? { reply_markup: extras.markup } : {}),
    });
  }

  /** Answers a button press; `alert` shows the text as a dialog rather than a toast. */
  answerCallback(queryId: string, text: string, alert = false): Promise<CallOutcome<true>> {
    return callTelegram<true>(this.#settings, "answerCallbackQuery", {
      callback_query_id: queryId,
      text: cut(text, CALLBACK_TEXT_LIMIT),
      show_alert: alert,
    });
  }

  /** A chat member's record (its `status` says whether they administer the chat). */
  member(chatId: number, userId: number): Promise<CallOutcome<ChatMember>> {
    return callTelegram<ChatMember>(this.#settings, "getChatMember", {
      chat_id: chatId,
      user_id: userId,
    });
  }

  /** The bot's own user record. */
  me(): Promise<CallOutcome<User>> {
    return callTelegram<User>(this.#settings, "getMe", {});
  }
}
