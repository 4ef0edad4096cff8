/**
 * The formatter for custom events. A sender may describe its message in a
 * `message` object `{ title, text, url, color, fields }`; without one, the
 * payload is summarised as `key: value` lines. All of it is shown as plain text.
 */

import type { ForgeEvent } from "../types.ts";
import { COLORS, parseColor } from "./colors.ts";
import { timestampOf } from "./context.ts";
import { bold, field, line, type Message, type MessageField, text } from "./message.ts";
import { at, type Json, list, record, string } from "./read.ts";
import { safeUrl, truncate } from "./text.ts";

/** How many payload entries a summary lists. */
export const SUMMARY_ENTRIES = 20;

const SUMMARY_VALUE_MAX = 200;
const SUMMARY_DEPTH = 3;
const TITLE_KEYS = ["title", "event", "type", "name", "action"];

/** A field value in words: strings as they are, other scalars as JSON. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || value === null) {
    return JSON.stringify(value);
  }
  return undefined;
}

function fieldsOf(value: unknown): MessageField[] {
  return list(value).flatMap((item) => {
    const name = scalarText(at(item, "name"));
    const content = scalarText(at(item, "value"));
    return name && content ? [field(name, text(content), at(item, "inline") === true)] : [];
  });
}

function fromMessage(event: ForgeEvent, message: Json): Message {
  const result: Message = {
    title: string(message.title) ?? "Custom event",
    color: parseColor(message.color) ?? COLORS.grey,
    footer: { provider: event.provider },
  };
  const url = safeUrl(message.url);
  const body = string(message.text);
  const fields = fieldsOf(message.fields);
  if (url) result.url = url;
  if (body) result.description = [line(text(body))];
  if (fields.length > 0) result.fields = fields;
  return result;
}

/** `key: value` entries of a payload, nested objects flattened to dotted keys. */
function entriesOf(value: Json, prefix = "", depth = 1): [string, string][] {
  return Object.entries(value).flatMap(([key, item]): [string, string][] => {
    const path = prefix ? `${prefix}.${key}` : key;
    const nested = record(item);
    if (nested && depth < SUMMARY_DEPTH) return entriesOf(nested, path, depth + 1);
    if (Array.isArray(item)) {
      const scalars = item.map(scalarText);
      return scalars.every((scalar) => scalar !== undefined)
        ? [[path, scalars.join(", ")]]
        : [[path, `${item.length} items`]];
    }
    return [[path, scalarText(item) ?? "{…}"]];
  });
}

function summaryOf(event: ForgeEvent, payload: Json): Message {
  const titleKey = TITLE_KEYS.find((key) => typeof payload[key] === "string" && payload[key]);
  const entries = entriesOf(payload);
  const shown = entries.slice(0, SUMMARY_ENTRIES).map(([key, value]) =>
    line(bold(`${key}:`), text(` ${truncate(value, SUMMARY_VALUE_MAX)}`))
  );
  const hidden = entries.length - shown.length;
  if (hidden > 0) shown.push(line(text(`… and ${hidden} more`)));
  const result: Message = {
    title: titleKey ? String(payload[titleKey]) : "Custom event",
    color: COLORS.grey,
    footer: { provider: event.provider },
  };
  const url = safeUrl(payload.url);
  if (url) result.url = url;
  if (shown.length > 0) result.description = shown;
  return result;
}

/**
 * A custom event: the sender's `message` when it sends one, else a readable
 * summary of the payload (title from `title`, `event`, `type`, `name` or `action`).
 */
export function formatCustom(event: ForgeEvent): Message {
  const payload = record(event.payload) ?? {};
  const message = record(payload.message);
  const result = message ? fromMessage(event, message) : summaryOf(event, payload);
  const timestamp = timestampOf(event);
  if (timestamp) result.timestamp = timestamp;
  return result;
}
