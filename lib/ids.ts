/**
 * Formats of the ids that arrive from outside: path parameters, queries, forms and webhook
 * headers. Routes check an id here before it reaches KV, where it becomes a key part (a key is
 * at most 2 KiB), so a malformed or oversized id is a clear 400, never a storage failure
 * (`requireId` in `http_guards.ts` answers it). Patterns and predicates only. Browser-safe.
 */
import { MAX_DELIVERY_ID_LENGTH, MAX_EVENT_ACTION_LENGTH } from "./limits.ts";

/** Format of route, group and fragment ids. */
export const ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** One id format: the pattern and how an error message describes it. */
interface IdFormat {
  pattern: RegExp;
  description: string;
}

/** A ulid id format: `what` names the id in error messages. */
function ulidFormat(what: string): IdFormat {
  return {
    pattern: /^[0-9A-HJKMNP-TV-Z]{26}$/,
    description: `${what} (a ulid: 26 characters of 0-9 and A-Z without I, L, O, U)`,
  };
}

/** Every id format, by kind. */
export const ID_FORMATS = {
  /** Group, route and fragment ids. */
  group: {
    pattern: ID_PATTERN,
    description: "1-64 lower-case letters, digits, _ or -, starting with a letter or digit",
  },
  /** Send log ids: the event's ulid, `-`, a short hex digest. */
  sendLog: {
    pattern: /^[0-9A-HJKMNP-TV-Z]{26}-[0-9a-f]{1,16}$/,
    description: "a send log id (a ulid, -, and up to 16 hex digits)",
  },
  /** Accepted event ids: a ulid. */
  event: ulidFormat("an event id"),
  /** Audit entry ids: a ulid. */
  auditEntry: ulidFormat("an audit entry id"),
  /** Bulk replay ids: a ulid. */
  replay: ulidFormat("a replay id"),
  /** Invite tokens: 32 random bytes in base64url. */
  inviteToken: {
    pattern: /^[A-Za-z0-9_-]{43}$/,
    description: "an invite token (43 characters of A-Z a-z 0-9 _ -)",
  },
  /** GitHub's numeric user ids. */
  githubUserId: {
    pattern: /^[1-9][0-9]{0,19}$/,
    description: "a numeric GitHub user id",
  },
  /** A Discord or Telegram user id (both are positive integers). */
  chatUserId: {
    pattern: /^[1-9][0-9]{0,19}$/,
    description: "a numeric Discord or Telegram user id",
  },
  /** Review reminder ids: 16 hex digits. */
  reminder: {
    pattern: /^[0-9a-f]{16}$/,
    description: "a reminder id (16 hexadecimal digits)",
  },
  /** A sender's delivery id (also the delivery id of send logs). */
  deliveryId: {
    pattern: new RegExp(`^[\\x21-\\x7e]{1,${MAX_DELIVERY_ID_LENGTH}}$`),
    description: `1-${MAX_DELIVERY_ID_LENGTH} printable ASCII characters without spaces`,
  },
} as const satisfies Record<string, IdFormat>;

/** The name of an id format. */
export type IdKind = keyof typeof ID_FORMATS;

/** Whether `value` is a string in the format of `kind`. */
export function isId(kind: IdKind, value: unknown): value is string {
  return typeof value === "string" && ID_FORMATS[kind].pattern.test(value);
}

/** Whether an event action (absent, or a payload's `action`) is short enough to store. */
export function isBoundedAction(action: string | undefined): boolean {
  return action === undefined || action.length <= MAX_EVENT_ACTION_LENGTH;
}
