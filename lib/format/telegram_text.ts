/** Short text messages in Telegram HTML (`chat_text.ts`), without link previews. */
import type { ChatText } from "./chat_text.ts";
import type { TelegramMessageBody } from "./telegram.ts";
import { escapeHtml } from "./text.ts";

/** Telegram's way of writing a short text message. */
export const TELEGRAM_TEXT: ChatText = {
  limit: 4000,
  escape: escapeHtml,
  plain: escapeHtml,
  bold: (text) => `<b>${text}</b>`,
  link: (text, url) => `<a href="${escapeHtml(url)}">${text}</a>`,
  mention: (userId, login) => `<a href="tg://user?id=${userId}">@${escapeHtml(login)}</a>`,
  body: (text): TelegramMessageBody => ({
    text,
    parse_mode: "HTML",
    link_preview_options: { is_disabled: true },
  }),
};
