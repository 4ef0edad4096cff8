/**
 * The platform-neutral message every formatter produces and every renderer reads.
 *
 * Text is never markup: a description is a list of blocks made of spans, and each
 * renderer turns spans into its own markup (Discord markdown, Telegram HTML),
 * escaping the user-controlled text exactly once.
 */

import type { Provider } from "../types.ts";

/** One run of inline text: plain, styled, or a link (optionally shown as code). */
export type Span =
  | { kind: "text"; text: string }
  | { kind: "bold" | "italic" | "code"; text: string }
  | { kind: "link"; text: string; url: string; code?: boolean };

/** A line of spans, or a quoted block of plain text (a comment or body excerpt). */
export type Block =
  | { kind: "line"; spans: Span[] }
  | { kind: "quote"; text: string };

/** Rich text: blocks shown one under the other. */
export type RichText = Block[];

/** Who caused the event. */
export interface MessageAuthor {
  name: string;
  url?: string;
  iconUrl?: string;
}

/** A labelled value (branch, status, severity …). */
export interface MessageField {
  name: string;
  value: Span[];
  inline?: boolean;
}

/** Where the event came from. */
interface MessageFooter {
  repository?: string;
  provider: Provider;
}

/** A chat message, before it is rendered for a platform. */
export interface Message {
  title: string;
  url?: string;
  author?: MessageAuthor;
  /** 24-bit RGB. */
  color?: number;
  description?: RichText;
  fields?: MessageField[];
  footer?: MessageFooter;
  /** ISO 8601. */
  timestamp?: string;
  /** Forge logins the event is addressed to (requested reviewers, assignees). */
  mentions?: string[];
}

/** A plain text span. */
export function text(value: string): Span {
  return { kind: "text", text: value };
}

/** A bold span. */
export function bold(value: string): Span {
  return { kind: "bold", text: value };
}

/** An italic span. */
export function italic(value: string): Span {
  return { kind: "italic", text: value };
}

/** An inline code span. */
export function code(value: string): Span {
  return { kind: "code", text: value };
}

/** A link span; without a url it degrades to plain (or code) text. */
export function link(value: string, url: string | undefined, asCode = false): Span {
  if (!url) return asCode ? code(value) : text(value);
  return asCode
    ? { kind: "link", text: value, url, code: true }
    : { kind: "link", text: value, url };
}

/** A line made of spans. */
export function line(...spans: Span[]): Block {
  return { kind: "line", spans };
}

/** A quoted block of plain text. */
export function quote(value: string): Block {
  return { kind: "quote", text: value };
}

/** A field; inline unless told otherwise. */
export function field(name: string, value: Span[] | Span, inline = true): MessageField {
  return { name, value: Array.isArray(value) ? value : [value], inline };
}
