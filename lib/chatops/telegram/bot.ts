/**
 * The Bot API calls chat-ops makes, typed with `@grammyjs/types`: answers in a chat (in the
 * topic of the message answered), private messages, callback answers, a member's status and
 * the bot's own name. Each goes through the Telegram adapter, reserved from its rate limiter by
 * its class (a reply, a press's answer, a read) and observed; each answers a result value,
 * never throws. A press's new buttons go through the adapter too (`press_buttons.ts`).
 */
import type { ChatMember, InlineKeyboardMarkup, Message, User } from "@grammyjs/types";
import type { CallOutcome } from "../../http_client.ts";
import type { BotCallClass, PlatformAdapter } from "../../platform/adapter.ts";
import { requestPacing } from "../../platform/pacing.ts";

/**
 * A call waits up to five seconds in process for the rate limit (an update's work goes on
 * after the webhook's answer); a longer wait (a 429's hold) answers a refusal.
 */
const pacing = requestPacing(5_000);

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

/** The Bot API calls of one bot, made through its adapter. */
export class TelegramBot {
  readonly #adapter: PlatformAdapter;

  /** A bot calling through Telegram's `adapter`. */
  constructor(adapter: PlatformAdapter) {
    this.#adapter = adapter;
  }

  /** Calls `method` of class `callClass` about `chatId` (null: about no chat). */
  #call<T>(
    callClass: BotCallClass,
    chatId: number | null,
    method: string,
    body: Record<string, unknown>,
  ): Promise<CallOutcome<T>> {
    return this.#adapter.botCall<T>(
      { class: callClass, chatId: chatId === null ? "" : String(chatId), method, body },
      pacing,
    );
  }

  /** Sends `text` to `place` (link previews off), as a reply to a person's command. */
  send(place: ReplyPlace, text: string, extras: MessageExtras = {}): Promise<CallOutcome<Message>> {
    return this.#call<Message>("reply", place.chatId, "sendMessage", {
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

  /**
   * Answers a button press (`alert` shows the text as a dialog rather than a toast). It posts
   * nothing in the chat, so it is about no chat: it waits for no chat's hold and a 429 on it
   * holds none, and the presser's spinner stops even while the chat is held.
   */
  answerCallback(queryId: string, text: string, alert = false): Promise<CallOutcome<true>> {
    return this.#call<true>("press", null, "answerCallbackQuery", {
      callback_query_id: queryId,
      text: cut(text, CALLBACK_TEXT_LIMIT),
      show_alert: alert,
    });
  }

  /** A chat member's record (its `status` says whether they administer the chat). */
  member(chatId: number, userId: number): Promise<CallOutcome<ChatMember>> {
    return this.#call<ChatMember>("read", chatId, "getChatMember", {
      chat_id: chatId,
      user_id: userId,
    });
  }

  /** The bot's own user record. */
  me(): Promise<CallOutcome<User>> {
    return this.#call<User>("read", null, "getMe", {});
  }
}
