/**
 * Subject messages: the one message a chat shows for a subject, kept per group under the
 * internal id of the group whose route posted it (`group_set.ts`), so a group never edits or
 * replies under another group's message, also when it takes a deleted group's id. Two uses:
 *
 * - edit in place (`in_place`): per place (a Discord channel or thread, a Telegram chat and
 *   topic) and hashed subject key (a CI run, a check suite, a deployment, or a pull request's or
 *   issue's card), the message delivery edits instead of posting a new one; kept
 *   {@link IN_PLACE_LIFETIME_MS}.
 * - thread cards (`thread`, docs/noise.md): per route and lane, the card a threaded route posted
 *   for a pull request or issue (`owner/repo#12`) and the Discord thread started from it; a pull
 *   request's head branch points back at its subject. Kept as long as the send logs.
 *
 * Records written before this store (`group_progress_messages`, `thread_cards`,
 * `thread_heads`) are moved here when first read (with a fresh lifetime), so an upgrade keeps
 * the cards and messages it tracks.
 */
import type { Kv, KvEntryMaybe, KvKey } from "../backend/types.ts";
import type { Platform } from "../../types.ts";
import {
  progressMessageKey,
  subjectHeadKey,
  subjectMessageKey,
  threadCardKey,
  threadHeadKey,
} from "../keys.ts";

/** How long a message stays editable in place: 30 days. */
export const IN_PLACE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** Longest place, subject key or message id kept for edit in place. */
const MAX_PART_LENGTH = 96;

/** Where a subject's message lives. */
export type SubjectPlace =
  /** Edited in place: `place` is `<channel or thread>` on Discord, `<chat>[:<topic>]` on Telegram. */
  | {
    use: "in_place";
    groupInternalId: string;
    platform: Platform;
    place: string;
    /** A hashed subject key (`lib/delivery/edit_in_place.ts`). */
    subjectKey: string;
  }
  /** A threaded route's card in one lane, for `subject` (`owner/repo#12`). */
  | { use: "thread"; groupInternalId: string; routeId: string; lane: string; subject: string };

/** The message recorded for a subject. */
export interface SubjectMessage {
  messageId: string;
  /** Edit in place: the unit that last edited it, so a retry of that unit does not edit again. */
  editedBy?: string;
  /** Edit in place: the stage it shows (0 queued, 1 running, 2 done), when known. */
  stage?: number;
  /** Edit in place: a deployment review card as it was posted, for the outcome edit. */
  body?: unknown;
  /** Thread card: its title when it was posted (a Discord thread is named after it). */
  title?: string;
  /** Thread card: the Discord thread started from it, once there is one. */
  threadId?: string;
  /** When it was recorded (Unix ms). */
  updatedAt: number;
}

/** Where a thread card lives. */
export type CardAt = Extract<SubjectPlace, { use: "thread" }>;

/** The route and lane a thread card is kept by, under its group's internal id. */
export type CardPlace = Omit<CardAt, "use" | "subject">;

/** A thread card as stored before this store. */
interface LegacyCard {
  messageId: string;
  title?: string;
  threadId?: string;
  createdAt: number;
}

function fits(value: string): boolean {
  return value.length > 0 && value.length <= MAX_PART_LENGTH;
}

/** The record's key and the key it had before this store; null for a malformed place. */
function keysOf(at: SubjectPlace): { key: KvKey; legacy: KvKey } | null {
  if (at.use === "thread") {
    return {
      key: subjectMessageKey(at.groupInternalId, "thread", at.routeId, at.lane, at.subject),
      legacy: threadCardKey(at.groupInternalId, at.routeId, at.lane, at.subject),
    };
  }
  if (!fits(at.place) || !fits(at.subjectKey)) return null;
  return {
    key: subjectMessageKey(at.groupInternalId, "in_place", at.platform, at.place, at.subjectKey),
    legacy: progressMessageKey(at.groupInternalId, at.platform, at.place, at.subjectKey),
  };
}

/** A record as stored before this store, in today's shape. */
function fromLegacy(at: SubjectPlace, value: unknown): SubjectMessage {
  if (at.use === "in_place") return value as SubjectMessage;
  const { createdAt, ...card } = value as LegacyCard;
  return { ...card, updatedAt: createdAt };
}

/**
 * The entry at `key`, after moving the record at `legacy` there when only that one exists
 * (the move is one checked commit; a concurrent move is read back).
 */
async function readMoving<T>(
  kv: Kv,
  key: KvKey,
  legacy: KvKey,
  lifetimeMs: number,
  convert: (value: unknown) => T,
): Promise<KvEntryMaybe<T>> {
  const [current, old] = await kv.getMany<[T, unknown]>([key, legacy]);
  if (current.value !== null || old.value === null) return current;
  const moved = convert(old.value);
  const result = await kv.atomic().check(current).check(old)
    .set(key, moved, { expireIn: lifetimeMs })
    .delete(legacy)
    .commit();
  return result.ok ? { key, value: moved, versionstamp: result.versionstamp } : await kv.get(key);
}

/**
 * The message recorded for `at`, or null (none, expired, or a malformed place). `lifetimeMs` is
 * how long a record moved from the earlier layout is kept.
 */
export async function getSubjectMessage(
  kv: Kv,
  at: SubjectPlace,
  lifetimeMs: number,
): Promise<SubjectMessage | null> {
  const keys = keysOf(at);
  if (!keys) return null;
  return (await readMoving(kv, keys.key, keys.legacy, lifetimeMs, (v) => fromLegacy(at, v)))
    .value;
}

/** Records `message` for `at`, replacing any earlier one, for `lifetimeMs`. */
export async function saveSubjectMessage(
  kv: Kv,
  at: SubjectPlace,
  message: SubjectMessage,
  lifetimeMs: number,
): Promise<void> {
  const keys = keysOf(at);
  if (!keys || !fits(message.messageId)) return;
  await kv.atomic().set(keys.key, message, { expireIn: lifetimeMs }).delete(keys.legacy).commit();
}

/**
 * Records `message` for `at` only when none is recorded yet (the first card of a pull request
 * or issue stays its card); true when it was recorded.
 */
export async function saveFirstSubjectMessage(
  kv: Kv,
  at: SubjectPlace,
  message: SubjectMessage,
  lifetimeMs: number,
): Promise<boolean> {
  const keys = keysOf(at);
  if (!keys || !fits(message.messageId)) return false;
  const current = await readMoving(kv, keys.key, keys.legacy, lifetimeMs, (v) => fromLegacy(at, v));
  if (current.value !== null) return false;
  const result = await kv.atomic()
    .check(current)
    .set(keys.key, message, { expireIn: lifetimeMs })
    .commit();
  return result.ok;
}

/**
 * Records the thread card of `at` (and the branch `head` pointing at its subject, when given).
 * The first card recorded stays; a later call only adds the thread id.
 */
export async function saveCard(
  kv: Kv,
  at: CardAt,
  card: SubjectMessage,
  lifetimeMs: number,
  head?: string,
): Promise<void> {
  const keys = keysOf(at)!;
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await readMoving(
      kv,
      keys.key,
      keys.legacy,
      lifetimeMs,
      (v) => fromLegacy(at, v),
    );
    const next = current.value ? { ...current.value, threadId: card.threadId } : card;
    const op = kv.atomic().check(current).set(keys.key, next, { expireIn: lifetimeMs });
    if (head !== undefined) {
      op.set(subjectHeadKey(at.groupInternalId, at.routeId, at.lane, head), at.subject, {
        expireIn: lifetimeMs,
      });
    }
    if ((await op.commit()).ok) return;
  }
}

/** The subject whose thread card the branch `head` (`owner/repo@refs/heads/x`) belongs to. */
export async function subjectOfHead(
  kv: Kv,
  place: CardPlace,
  head: string,
  lifetimeMs: number,
): Promise<string | null> {
  const { groupInternalId, routeId, lane } = place;
  const key = subjectHeadKey(groupInternalId, routeId, lane, head);
  const legacy = threadHeadKey(groupInternalId, routeId, lane, head);
  return (await readMoving(kv, key, legacy, lifetimeMs, (value) => value as string)).value;
}
