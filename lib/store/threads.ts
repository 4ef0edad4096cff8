/**
 * Thread cards (docs/noise.md): for a route with `threads`, the message that a pull request's
 * or issue's first event posted into a lane, and (Discord) the thread started from it. A pull
 * request's head branch points back at its card, so pushes to the branch find it. Both expire
 * with the send logs.
 *
 * Cards are kept under the group's internal id (`group_set.ts`), never under its reusable id,
 * so a group that takes a deleted group's id starts without its cards. Groups stored before
 * internal ids keep their group id as internal id, so their cards are read as before; cards of
 * other groups recorded under the group id are no longer read and expire with the send logs.
 */
import type { Kv } from "./backend/types.ts";
import { threadCardKey, threadHeadKey } from "./keys.ts";

/** The value at `["thread_cards", …]`. */
export interface ThreadCard {
  /** The card's message id. */
  messageId: string;
  /** The card's title when it was posted (a Discord thread is named after it). */
  title?: string;
  /** The Discord thread started from the card, once there is one. */
  threadId?: string;
  /** Unix ms. */
  createdAt: number;
}

/** Where a card lives: the group (by internal id), route and lane it was posted by and into. */
export interface CardPlace {
  groupInternalId: string;
  routeId: string;
  lane: string;
}

/** The card of `subject` (`owner/repo#12`), when one was posted. */
export async function getThreadCard(
  kv: Kv,
  place: CardPlace,
  subject: string,
): Promise<ThreadCard | null> {
  const key = threadCardKey(place.groupInternalId, place.routeId, place.lane, subject);
  return (await kv.get<ThreadCard>(key)).value;
}

/**
 * Records the card of `subject` (and the branch `head` pointing at it, when given). The first
 * card recorded stays; a later call only adds the thread id.
 */
export async function saveThreadCard(
  kv: Kv,
  place: CardPlace,
  subject: string,
  card: ThreadCard,
  retentionMs: number,
  head?: string,
): Promise<void> {
  const key = threadCardKey(place.groupInternalId, place.routeId, place.lane, subject);
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await kv.get<ThreadCard>(key);
    const next = current.value ? { ...current.value, threadId: card.threadId } : card;
    const op = kv.atomic().check(current).set(key, next, { expireIn: retentionMs });
    if (head !== undefined) {
      op.set(threadHeadKey(place.groupInternalId, place.routeId, place.lane, head), subject, {
        expireIn: retentionMs,
      });
    }
    if ((await op.commit()).ok) return;
  }
}

/** The subject whose card the branch `head` (`owner/repo@refs/heads/x`) belongs to. */
export async function subjectOfHead(
  kv: Kv,
  place: CardPlace,
  head: string,
): Promise<string | null> {
  const key = threadHeadKey(place.groupInternalId, place.routeId, place.lane, head);
  return (await kv.get<string>(key)).value;
}
