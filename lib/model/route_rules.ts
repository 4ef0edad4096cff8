/**
 * The rules and messages of a route's plain fields: ids, names, and the chat ids in targets
 * (Discord ids, Telegram chat and topic ids). The zod schemas (`schema.ts`) and the console's
 * route editor both use these, so a field is refused with the same message as you type and
 * when the API checks it. Browser-safe, and free of zod so the console's bundle stays small.
 */

import { ID_PATTERN } from "../ids.ts";
import { MAX_TARGETS } from "../limits.ts";

export { ID_PATTERN, MAX_TARGETS };
/** The message for a malformed id. */
export const ID_ERROR =
  "must be 1-64 lower-case letters, digits, _ or -, starting with a letter or digit";
/** Longest route, group or fragment name. */
export const MAX_NAME_LENGTH = 100;
/** Most Discord role ids per route. */
export const MAX_ROLE_IDS = 100;

const MAX_SNOWFLAKE = 2n ** 64n - 1n;
const CHAT_NAME = /^@[A-Za-z][A-Za-z0-9_]{3,31}$/;

/** The message for a value that is not a Discord id. */
export const DISCORD_ID_ERROR = "must be a Discord id (digits)";
/** The message for a Discord id given as a number too large to keep its digits. */
const DISCORD_ID_NUMBER_ERROR =
  "must be a Discord id as a string (this number is too large to keep its digits)";
/** The message for a value that is not a Telegram chat. */
export const CHAT_ID_ERROR = "must be a numeric chat id or an @channel name";
/** The message for a value that is not a Telegram topic id. */
export const TOPIC_ID_ERROR = "must be a positive integer";

/** Canonical digits of a Discord id given as a string or a (safe) number; null if it is none. */
export function canonicalSnowflake(value: string | number): string | null {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value > 0 ? String(value) : null;
  }
  if (!/^\d{1,20}$/.test(value)) return null;
  const id = BigInt(value);
  return id > 0n && id <= MAX_SNOWFLAKE ? id.toString() : null;
}

/** Why a Discord id is refused (see `canonicalSnowflake`). */
export function snowflakeError(value: string | number): string {
  return typeof value === "number" && Number.isInteger(value) && value > 0
    ? DISCORD_ID_NUMBER_ERROR
    : DISCORD_ID_ERROR;
}

/** Canonical digits of a numeric Telegram chat id (a safe integer, may be negative); or null. */
function canonicalChatNumber(value: string | number): string | null {
  const id = typeof value === "number" ? value : /^-?\d{1,16}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id !== 0 ? String(id) : null;
}

/** A Telegram chat in its stored form: an `@channel` name or canonical digits; null if none. */
export function canonicalChatId(value: string | number): string | null {
  if (typeof value === "string" && CHAT_NAME.test(value)) return value;
  return canonicalChatNumber(value);
}

/** A Telegram topic id as a number: a positive integer, also given as a numeric string. */
export function canonicalTopicId(value: string | number): number | null {
  const id = typeof value === "number" ? value : /^\d{1,16}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
