/**
 * Rendering a message as a Telegram `sendMessage` text with `parse_mode: HTML`:
 * user text escaped once, only tags Telegram allows, and at most 4,096
 * characters without ever cutting inside a tag or an entity.
 */

import type {
  InlineKeyboardButton,
  InlineKeyboardMarkup,
  LinkPreviewOptions,
} from "@grammyjs/types";
import type { Target } from "../types.ts";
import { colorDot } from "./colors.ts";
import { type TelegramMention, telegramMentionLine } from "./mentions.ts";
import type { Message, MessageField, RichText, Span } from "./message.ts";
import { providerName } from "./provider.ts";
import { GITHUB_REACTIONS } from "./reactions.ts";
import { escapeHtml, escapeHtmlAttribute, safeUrl, truncate } from "./text.ts";
import { truncateHtml } from "./truncate_html.ts";
import { type RunActions, telegramRunKeyboard } from "./run_buttons.ts";

/** Telegram's limit on a message text. */
export const TELEGRAM_TEXT_LIMIT = 4096;

/** How long a title may be before it is cut. */
const TITLE_LIMIT = 256;

/** How long an author name or a footer may be before it is cut. */
const LINE_LIMIT = 256;

/** The text part of Telegram's `sendMessage` parameters, with the action buttons when any. */
export interface TelegramMessageBody {
  text: string;
  parse_mode: "HTML";
  link_preview_options: LinkPreviewOptions;
  reply_markup?: InlineKeyboardMarkup;
  /** The message this one answers (threaded routes, docs/noise.md). */
  reply_parameters?: { message_id: number; allow_sending_without_reply?: boolean };
}

/** Telegram's `sendMessage` parameters for one target. */
interface TelegramSendMessage extends TelegramMessageBody {
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
 * footer; the linked users the message mentions are linked under the title.
 * The title and footer are kept and the middle is cut to fit 4,096 (only a
 * pathologically long title or link can cut into the end itself).
 * Link previews are off: the message already says what the link is.
 */
export function renderTelegram(
  message: Message,
  actions?: TelegramActions | RunActions,
  mentioned: readonly TelegramMention[] = [],
): TelegramMessageBody {
  const mentionLine = telegramMentionLine(mentioned);
  const header = headerOf(message) + (mentionLine ? `\n${mentionLine}` : "");
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
    ...(actions ? { reply_markup: keyboardOf(actions) } : {}),
  };
}

/** The buttons for a notification's actions: a run's or deployment's, or an item's. */
function keyboardOf(actions: TelegramActions | RunActions): InlineKeyboardMarkup {
  return actions.kind === "run" || actions.kind === "deployment"
    ? telegramRunKeyboard(actions)
    : telegramKeyboard(actions);
}

/** The full `sendMessage` parameters for a Telegram target, in its topic when it names one. */
export function telegramSendMessage(
  target: Extract<Target, { platform: "telegram" }>,
  message: Message,
  actions?: TelegramActions,
): TelegramSendMessage {
  const parameters: TelegramSendMessage = {
    chat_id: target.chatId,
    ...renderTelegram(message, actions),
  };
  if (target.topicId !== undefined) parameters.message_thread_id = target.topicId;
  return parameters;
}

/**
 * What a notification's buttons act on: a pull request or an issue, its state and its page
 * (the same shape the Discord renderer takes).
 */
export interface TelegramActions {
  kind: "pull" | "issue";
  state: SubjectState;
  /** The subject's page, for the Open button (http(s) only). */
  url?: string;
  /** The subject's tag (a few letters and digits), added to each button's data after a `#`. */
  tag?: string;
}

/** Whether the subject is open, closed, or (a pull request) merged. */
export type SubjectState = "open" | "closed" | "merged";

/** A merge method GitHub accepts. */
export type MergeMethod = "merge" | "squash" | "rebase";

const REACTION_NAMES: ReadonlySet<string> = new Set(GITHUB_REACTIONS.map(([name]) => name));

/**
 * What a button press asks for, as carried in `callback_data` (at most 64 bytes, always
 * `gh:` and a few short words): show the merge confirmation, merge with a method, close,
 * reopen, show the reactions, react, or go back to the main buttons for a state.
 */
export type ButtonAction =
  | { kind: "merge_confirm" }
  | { kind: "merge"; method: MergeMethod }
  | { kind: "close" }
  | { kind: "reopen" }
  | { kind: "react_menu" }
  | { kind: "react"; content: string }
  | { kind: "back"; state: SubjectState };

const MERGE_METHODS: readonly MergeMethod[] = ["merge", "squash", "rebase"];
const STATE_CODES: ReadonlyMap<SubjectState, string> = new Map([
  ["open", "o"],
  ["closed", "c"],
  ["merged", "m"],
]);
const BUTTON_PREFIX = "gh:";
const TAG = /^[0-9a-z]{1,13}$/;

/**
 * The `callback_data` for a button action (the inverse of {@link parseButtonData}), ending in
 * `#<tag>` when a well-formed tag is given.
 */
export function buttonData(action: ButtonAction, tag?: string): string {
  const data = untaggedData(action);
  return tag && TAG.test(tag) ? `${data}#${tag}` : data;
}

/** The tag a `callback_data` ends in, or undefined. */
export function buttonTag(data: string): string | undefined {
  const hash = data.indexOf("#");
  const tag = hash < 0 ? "" : data.slice(hash + 1);
  return TAG.test(tag) ? tag : undefined;
}

function untaggedData(action: ButtonAction): string {
  switch (action.kind) {
    case "merge_confirm":
      return `${BUTTON_PREFIX}merge`;
    case "merge":
      return `${BUTTON_PREFIX}merge:${action.method}`;
    case "close":
    case "reopen":
      return `${BUTTON_PREFIX}${action.kind}`;
    case "react_menu":
      return `${BUTTON_PREFIX}react`;
    case "react":
      return `${BUTTON_PREFIX}react:${action.content}`;
    case "back":
      return `${BUTTON_PREFIX}back:${STATE_CODES.get(action.state)}`;
  }
}

/** The action a `callback_data` names (its tag aside), or null for anything else. */
export function parseButtonData(data: string): ButtonAction | null {
  if (data.length > 64 || !data.startsWith(BUTTON_PREFIX)) return null;
  const hash = data.indexOf("#");
  if (hash >= 0 && buttonTag(data) === undefined) return null;
  const action = hash < 0 ? data : data.slice(0, hash);
  const [name, argument, ...rest] = action.slice(BUTTON_PREFIX.length).split(":");
  if (rest.length > 0) return null;
  if (argument === undefined) {
    switch (name) {
      case "merge":
        return { kind: "merge_confirm" };
      case "close":
      case "reopen":
        return { kind: name };
      case "react":
        return { kind: "react_menu" };
      default:
        return null;
    }
  }
  if (name === "merge") {
    const method = MERGE_METHODS.find((m) => m === argument);
    return method ? { kind: "merge", method } : null;
  }
  if (name === "react") {
    return REACTION_NAMES.has(argument) ? { kind: "react", content: argument } : null;
  }
  if (name === "back") {
    const state = [...STATE_CODES].find(([, code]) => code === argument)?.[0];
    return state ? { kind: "back", state } : null;
  }
  return null;
}

function button(
  text: string,
  action: ButtonAction,
  tag?: string,
): InlineKeyboardButton.CallbackButton {
  return { text, callback_data: buttonData(action, tag) };
}

function openRow(url: string | undefined): InlineKeyboardButton[] {
  return url && safeUrl(url) ? [{ text: "Open", url }] : [];
}

/**
 * The main buttons of a notification: Merge (a pull request, open) and Close while open,
 * Reopen once closed (not merged), React, and Open (a link to the subject).
 */
export function telegramKeyboard(actions: TelegramActions): InlineKeyboardMarkup {
  const { tag } = actions;
  const first: InlineKeyboardButton[] = [];
  if (actions.state === "open") {
    if (actions.kind === "pull") first.push(button("Merge", { kind: "merge_confirm" }, tag));
    first.push(button("Close", { kind: "close" }, tag));
  } else if (actions.state === "closed") {
    first.push(button("Reopen", { kind: "reopen" }, tag));
  }
  const second = [button("React", { kind: "react_menu" }, tag), ...openRow(actions.url)];
  return { inline_keyboard: first.length ? [first, second] : [second] };
}

/** The merge confirmation: one button per method, and Cancel (back to the open buttons). */
export function mergeConfirmKeyboard(url?: string, tag?: string): InlineKeyboardMarkup {
  return {
    inline_keyboard: [
      [
        button("Confirm merge", { kind: "merge", method: "merge" }, tag),
        button("Squash", { kind: "merge", method: "squash" }, tag),
        button("Rebase", { kind: "merge", method: "rebase" }, tag),
      ],
      [button("Cancel", { kind: "back", state: "open" }, tag), ...openRow(url)],
    ],
  };
}

/** The reaction picker: GitHub's eight reactions, and Back to the buttons for `state`. */
export function reactionKeyboard(
  state: SubjectState,
  url?: string,
  tag?: string,
): InlineKeyboardMarkup {
  const reactions = GITHUB_REACTIONS.map(([content, emoji]) =>
    button(emoji, { kind: "react", content }, tag)
  );
  return {
    inline_keyboard: [
      reactions.slice(0, 4),
      reactions.slice(4),
      [button("Back", { kind: "back", state }, tag), ...openRow(url)],
    ],
  };
}
