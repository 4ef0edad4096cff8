/**
 * Text helpers shared by formatters and renderers: length-safe truncation,
 * escaping for Discord markdown and Telegram HTML, and git naming helpers.
 *
 * Lengths are measured in UTF-16 code units (`string.length`), which is never
 * less than the code-point count the platforms use, so a text that fits here
 * fits there. Cuts only happen between grapheme clusters (`clusterStart`), so a
 * family emoji, a flag or an accented letter is kept whole or dropped whole.
 */

import { clusterStart } from "./grapheme.ts";

/** The mark that ends every cut text. */
export const ELLIPSIS = "…";

/** The first `count` code points of a text. */
function codePointPrefix(points: string[], count: number): string {
  return points.slice(0, count).join("");
}

/**
 * The rendering of the longest prefix of `value` that ends between grapheme
 * clusters, trimmed and ended with `…`, that fits in `max`; "" when not even `…`
 * fits. `render` turns text into markup and must grow with its input.
 */
export function cutRendered(
  value: string,
  max: number,
  render: (value: string) => string = (v) => v,
): string {
  const points = Array.from(value);
  const attempt = (count: number) => render(codePointPrefix(points, count).trimEnd() + ELLIPSIS);
  let low = 0;
  let high = points.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (attempt(middle).length <= max) low = middle;
    else high = middle - 1;
  }
  const prefix = codePointPrefix(points, low);
  const kept = value.slice(0, clusterStart(value, prefix.length));
  const best = render(kept.trimEnd() + ELLIPSIS);
  return best.length <= max ? best : "";
}

/** The rendering of `value` when it fits in `max`, else its cut rendering (see `cutRendered`). */
function fitRendered(
  value: string,
  max: number,
  render: (value: string) => string = (v) => v,
): string {
  const whole = render(value);
  return whole.length <= max ? whole : cutRendered(value, max, render);
}

/** Cuts a plain text to at most `max` UTF-16 units, ending a cut with `…`. */
export function truncate(value: string, max: number): string {
  return fitRendered(value, max);
}

/** Escapes text for Telegram HTML (`&`, `<`, `>`). */
export function escapeHtml(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** Escapes a Telegram HTML attribute value (also `"`). */
export function escapeHtmlAttribute(value: string): string {
  return escapeHtml(value).replaceAll('"', "&quot;");
}

const MARKDOWN_INLINE = /[\\*_~`|[\]()<>]/g;
const MARKDOWN_LINE_MARKER = /^([ \t]*)([#+-])(?=[ \t#])/gm;
const MARKDOWN_LIST_NUMBER = /^([ \t]*\d+)\.(?=[ \t])/gm;

/**
 * Escapes Discord markdown: inline markers anywhere, and heading, list and
 * subtext markers (`# `, `- `, `+ `, `1. `, `-# `) at the start of a line (the
 * start of the text counts as one).
 */
export function escapeMarkdown(value: string): string {
  return value
    .replace(MARKDOWN_INLINE, "\\$&")
    .replace(MARKDOWN_LINE_MARKER, "$1\\$2")
    .replace(MARKDOWN_LIST_NUMBER, "$1\\.");
}

/** The URL when it is an absolute http(s) URL of a sane length, else undefined. */
export function safeUrl(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return undefined;
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  return url.href;
}

/** The first line of a text, without surrounding whitespace. */
export function firstLine(value: string): string {
  return value.trim().split(/\r?\n/, 1)[0]?.trim() ?? "";
}

/** A commit SHA shortened to seven characters. */
export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}

/** True for git's all-zero SHA (a ref that did not exist before, or no longer exists). */
export function isZeroSha(sha: unknown): boolean {
  return typeof sha === "string" && /^0+$/.test(sha);
}

/** A git ref split into its kind and short name. */
export interface RefName {
  type: "branch" | "tag" | "ref";
  name: string;
}

/** `refs/heads/main` → branch `main`; `refs/tags/v1` → tag `v1`; anything else is kept whole. */
export function parseRef(ref: string): RefName {
  if (ref.startsWith("refs/heads/")) {
    return { type: "branch", name: ref.slice("refs/heads/".length) };
  }
  if (ref.startsWith("refs/tags/")) return { type: "tag", name: ref.slice("refs/tags/".length) };
  return { type: "ref", name: ref };
}

/** `1 commit`, `3 commits`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** `ready_for_review` → `ready for review`. */
export function humanize(value: string): string {
  return value.replaceAll(/[_.]+/g, " ").trim();
}

/** The text with its first letter in upper case. */
export function capitalize(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/**
 * A forge body made readable as plain text: line endings unified, HTML comments
 * (issue templates) removed, runs of blank lines collapsed, outer space trimmed.
 */
export function cleanBody(value: string): string {
  return value
    .replaceAll(/\r\n?/g, "\n")
    .replaceAll(/<!--[\s\S]*?(-->|$)/g, "")
    .replaceAll(/\n{3,}/g, "\n\n")
    .trim();
}

/** Whole minutes and seconds between two ISO times (`3m 18s`), or undefined. */
export function duration(from: unknown, to: unknown): string | undefined {
  if (typeof from !== "string" || typeof to !== "string") return undefined;
  const milliseconds = Date.parse(to) - Date.parse(from);
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return undefined;
  const seconds = Math.round(milliseconds / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${rest}s`;
  return `${rest}s`;
}
