/**
 * Messages edited in place: for each place (a Discord channel or thread, a Telegram chat and
 * topic) and subject key (a CI run, a check suite, a deployment, or a pull request's or issue's
 * card), the one message the chat shows for it. Delivery reads the record to edit that message
 * instead of posting a new one; records expire after {@link PROGRESS_MESSAGE_LIFETIME_MS}.
 *
 * Records are kept per group, under the internal id of the group whose route posted the
 * message (`group_set.ts`): a group never edits another group's message, also when it takes a
 * deleted group's id or shares a chat with another group. Records written before they were kept
 * per group are no longer read; they expire within the 30 days, and meanwhile a subject they
 * covered gets one new message.
 */
import type { Kv, KvKey } from "./backend/types.ts";
import type { Platform } from "../types.ts";
import { progressMessageKey } from "./keys.ts";

/** How long a message stays editable in place: 30 days. */
export const PROGRESS_MESSAGE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** Longest place, subject key or message id kept. */
const MAX_PART_LENGTH = 96;

/** Where a message edited in place lives, and what it shows. */
export interface ProgressPlace {
  /** The internal id of the group whose route posts the message. */
  groupInternalId: string;
  platform: Platform;
  /** `<channel or thread>` on Discord, `<chat>` or `<chat>:<topic>` on Telegram. */
  place: string;
  /** A hashed subject key (`lib/delivery/edit_in_place.ts`). */
  subjectKey: string;
}

/** The recorded message of a place and subject. */
export interface ProgressMessage {
  messageId: string;
  /** The unit that last edited it, so a retry of that unit does not edit it again. */
  editedBy?: string;
  /** The stage the message shows (0 queued, 1 running, 2 done), when known. */
  stage?: number;
  /** Unix milliseconds. */
  updatedAt: number;
}

function fits(value: string): boolean {
  return value.length > 0 && value.length <= MAX_PART_LENGTH;
}

function keyOf(at: ProgressPlace): KvKey | null {
  return fits(at.place) && fits(at.subjectKey)
    ? progressMessageKey(at.groupInternalId, at.platform, at.place, at.subjectKey)
    : null;
}

/** The message recorded for `at`, or null (none, expired, or a malformed place). */
export async function getProgressMessage(
  kv: Kv,
  at: ProgressPlace,
): Promise<ProgressMessage | null> {
  const key = keyOf(at);
  return key ? (await kv.get<ProgressMessage>(key)).value : null;
}

/** Records `messageId` as the message of `at` (replacing any earlier one). */
export async function saveProgressMessage(
  kv: Kv,
  at: ProgressPlace,
  messageId: string,
  now: number,
  editedBy?: string,
  stage?: number,
): Promise<void> {
  const key = keyOf(at);
  if (!key || !fits(messageId)) return;
  const record: ProgressMessage = {
    messageId,
    ...(editedBy === undefined ? {} : { editedBy }),
    ...(stage === undefined ? {} : { stage }),
    updatedAt: now,
  };
  await kv.set(key, record, { expireIn: PROGRESS_MESSAGE_LIFETIME_MS });
}

/**
 * Records `messageId` as the message of `at` only when none is recorded yet (the first card of
 * a pull request or issue stays its card); true when it was recorded.
 */
export async function saveFirstProgressMessage(
  kv: Kv,
  at: ProgressPlace,
  messageId: string,
  now: number,
): Promise<boolean> {
  const key = keyOf(at);
  if (!key || !fits(messageId)) return false;
  const record: ProgressMessage = { messageId, updatedAt: now };
  const result = await kv.atomic()
    .check({ key, versionstamp: null })
    .set(key, record, { expireIn: PROGRESS_MESSAGE_LIFETIME_MS })
    .commit();
  return result.ok;
}
