/**
 * What each sent notification is about: (platform, chat, message id) → the pull request or issue
 * it shows, and the route and group that sent it. Buttons and replies on a notification read it
 * to know what they act on. Records expire after {@link MESSAGE_REF_LIFETIME_MS}.
 */
import type { Platform } from "../types.ts";
import { messageRefKey, messageRefsOfChatPrefix } from "./keys.ts";

/** How long a notification stays actionable: 30 days. */
export const MESSAGE_REF_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** Longest chat or message id kept (Discord snowflakes and Telegram ids are far shorter). */
const MAX_ID_LENGTH = 64;

/** A pull request or issue a notification is about. */
export interface MessageSubject {
  /** `owner/name`. */
  repository: string;
  kind: "pull" | "issue";
  number: number;
  routeId: string;
  groupId: string;
}

/** Where a notification was sent: the chat (a Discord channel or thread, a Telegram chat). */
export interface MessagePlace {
  platform: Platform;
  chatId: string;
  messageId: string;
}

/** A notification to record: where it is and what it is about. */
export interface NewMessageRef {
  place: MessagePlace;
  subject: MessageSubject;
}

/** A recorded notification: where it is and what it is about. */
export interface MessageRef extends MessagePlace {
  subject: MessageSubject;
  /** Unix milliseconds. */
  sentAt: number;
}

/** Numeric ids padded, so a chat's records list in message order. */
function sortableId(messageId: string): string {
  return /^\d{1,20}$/.test(messageId) ? messageId.padStart(20, "0") : messageId;
}

function keyOf(place: MessagePlace) {
  return messageRefKey(place.platform, place.chatId, sortableId(place.messageId));
}

function validPlace(place: MessagePlace): boolean {
  const fits = (id: string) => id.length > 0 && id.length <= MAX_ID_LENGTH;
  return fits(place.chatId) && fits(place.messageId);
}

/** Records what the notification at `place` is about; a malformed place is ignored. */
export async function saveMessageRef(
  kv: Deno.Kv,
  place: MessagePlace,
  subject: MessageSubject,
  now: number = Date.now(),
): Promise<void> {
  if (!validPlace(place)) return;
  await addMessageRef(kv.atomic(), place, subject, now).commit();
}

/**
 * Adds to `op` the record of what the notification at `place` is about, so it is written in
 * the same commit as the rest of `op` (a malformed place adds nothing).
 */
export function addMessageRef(
  op: Deno.AtomicOperation,
  place: MessagePlace,
  subject: MessageSubject,
  now: number,
): Deno.AtomicOperation {
  if (!validPlace(place)) return op;
  const ref: MessageRef = { ...place, subject, sentAt: now };
  return op.set(keyOf(place), ref, { expireIn: MESSAGE_REF_LIFETIME_MS });
}

/** What the notification at `place` is about, or null (unknown, expired or malformed). */
export async function getMessageRef(kv: Deno.Kv, place: MessagePlace): Promise<MessageRef | null> {
  if (!validPlace(place)) return null;
  const ref = (await kv.get<MessageRef>(keyOf(place))).value;
  return ref && ref.sentAt + MESSAGE_REF_LIFETIME_MS > Date.now() ? ref : null;
}

/** The most recent notifications of a chat (by message id, newest first), at most `limit`. */
export async function recentMessageRefs(
  kv: Deno.Kv,
  platform: Platform,
  chatId: string,
  limit = 25,
): Promise<MessageRef[]> {
  if (chatId.length === 0 || chatId.length > MAX_ID_LENGTH) return [];
  const refs: MessageRef[] = [];
  const entries = kv.list<MessageRef>(
    { prefix: messageRefsOfChatPrefix(platform, chatId) },
    { reverse: true, limit: Math.max(1, Math.min(limit, 100)) },
  );
  for await (const entry of entries) refs.push(entry.value);
  return refs;
}
