/**
 * Rendering a message as a Telegram `sendMessage` text with `parse_mode: HTML`:
 * user text escaped once, only tags Telegram allows, and at most 4,096
 * characters without ever cutting inside a tag or an entity.
 */

import type { LinkPreviewOptions } from "@grammyjs/types";
import type { Target } from "../types.ts";
import { colorDot } from "./colors.ts";
import type { Message, MessageField, RichText, Span } from "./message.ts";
import { providerName } from "./provider.ts";
import { escapeHtml, escapeHtmlAttribute, truncate } from "./text.ts";
import { truncateHtml } from "./truncate_html.ts";

/** Telegram's limit on a message text. */
export const TELEGRAM_TEXT_LIMIT = 4096;

/** How long a title may be before it is cut. */
const TITLE_LIMIT = 256;

/** How long an author name or a footer may be before it is cut. */
const LINE_LIMIT = 256;

/** The text part of Telegram's `sendMessage` parameters. */
export interface TelegramMessageBody {
  text: string;
  parse_mode: "HTML";
  link_preview_options: LinkPreviewOptions;
}

/** Telegram's `sendMessage` parameters for one target. */
export interface TelegramSendMessage extends TelegramMessageBody {
  chat_id: string;
  message_thread_id?: number;
}

function anchor(url: string, inner: string): string {
  return `<a href="${escapeHtmlAttribute(url)}">${inner}</a>`;
}

function wrap(tag: string, value: string): string {
  return value ? `<${tag}>${escapeHtml(value)}</${tag}>` : "";
}

/** Telegram HTML for one span (a link cannot contain code there, so a code link is a plain link). */
function renderSpan(span: Span): string {
  switch (span.kind) {
    case "text":
      return escapeHtml(span.text);
    case "bold":
      return wrap("b", span.text);
    case "italic":
      return wrap("i", span.text);
    case "code":
      return wrap("code", span.text);
    case "link":
      return anchor(span.url, escapeHtml(span.text || span.url));
  }
}

/** Telegram HTML for rich text, blocks on their own lines, quotes as `<blockquote>`. */
function renderHtml(blocks: RichText): string {
  return blocks
    .map((block) =>
      block.kind === "quote" ? wrap("blockquote", block.text) : block.spans.map(renderSpan).join("")
    )
    .join("\n");
}

function renderField(item: MessageField): string {
  return `<b>${escapeHtml(item.name)}:</b> ${item.value.map(renderSpan).join("")}`;
}

function headerOf(message: Message): string {
  const title = escapeHtml(truncate(message.title, TITLE_LIMIT));
  const linked = message.url ? anchor(message.url, title) : title;
  const dot = colorDot(message.color);
  const lines = [`${dot ? `${dot} ` : ""}<b>${linked}</b>`];
  if (message.author) {
    const name = escapeHtml(truncate(message.author.name, LINE_LIMIT));
    lines.push(`by ${message.author.url ? anchor(message.author.url, name) : name}`);
  }
  return lines.join("\n");
}

function footerOf(message: Message): string {
  if (!message.footer) return "";
  const provider = providerName(message.footer.provider);
  const text = message.footer.repository ? `${message.footer.repository} · ${provider}` : provider;
  return `<i>${escapeHtml(truncate(text, LINE_LIMIT))}</i>`;
}

/**
 * The `sendMessage` text for a message: a linked bold title (with a status dot
 * for palette colours), the author, the description, the fields and an italic
 * footer. The title and footer are kept and the middle is cut to fit 4,096
 * (only a pathologically long title or link can cut into the end itself).
 * Link previews are off: the message already says what the link is.
 */
export function renderTelegram(message: Message): TelegramMessageBody {
  const header = headerOf(message);
  const footer = footerOf(message);
  const body = [
    renderHtml(message.description ?? []),
    (message.fields ?? []).map(renderField).join("\n"),
  ].filter(Boolean).join("\n\n");
  const separators = (body ? 2 : 0) + (footer ? 2 : 0);
  const budget = TELEGRAM_TEXT_LIMIT - header.length - footer.length - separators;
  const text = [header, truncateHtml(body, Math.max(budget, 0)), footer]
    .filter(Boolean)
    .join("\n\n");
  return {
    text: truncateHtml(text, TELEGRAM_TEXT_LIMIT),
    parse_mode: "HTML",
    link_preview_options: { is_disabled: true },
  };
}

/** The full `sendMessage` parameters for a Telegram target, in its topic when it names one. */
export function telegramSendMessage(
  target: Extract<Target, { platform: "telegram" }>,
  message: Message,
): TelegramSendMessage {
  const parameters: TelegramSendMessage = { chat_id: target.chatId, ...renderTelegram(message) };
  if (target.topicId !== undefined) parameters.message_thread_id = target.topicId;
  return parameters;
}
