/**
 * What each sent notification is about: (platform, chat, message id) → the pull request or issue
 * it shows, and the route and group that sent it. Buttons and replies on a notification read it
 * to know what they act on. Records expire after {@link MESSAGE_REF_LIFETIME_MS}.
 *
 * A record belongs to the group that sent the notification, by its internal id: once the group's
 * id names another group (the sender was deleted or renamed and the id taken), the record is
 * read as unknown, so the newcomer never acts through the old group's notifications. Records
 * written before they carried the internal id belong to the group with that id when they were
 * sent no earlier than the group was created (a new internal id is a ULID of its creation time).
 */
import type { AtomicOperation, Kv } from "../backend/types.ts";
import { decodeUlidTime } from "../../ulid.ts";
import type { Platform } from "../../types.ts";
import { readGroupEntry } from "../config/group_set.ts";
import { messageRefKey, messageRefsOfChatPrefix } from "../keys.ts";

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
  /** The internal id of the group that sent it (absent in records written before it was kept). */
  groupInternalId?: string;
}

/**
 * A workflow run a notification is about (`run`, by its run id), or a run's deployment waiting
 * for review (`deployment`, by its run id, with the environment it waits on).
 */
export interface RunSubject extends Omit<MessageSubject, "kind"> {
  kind: "run" | "deployment";
  /** The environment a `deployment` waits on. */
  environment?: string;
}

/** What a notification is about: a pull request or issue, or a workflow run. */
export type NotificationSubject = MessageSubject | RunSubject;

/** Whether the subject is a pull request or an issue (what merge, close and comment act on). */
export function isIssueSubject(subject: NotificationSubject): subject is MessageSubject {
  return subject.kind === "pull" || subject.kind === "issue";
}

/** Where a notification was sent: the chat (a Discord channel or thread, a Telegram chat). */
interface MessagePlace {
  platform: Platform;
  chatId: string;
  messageId: string;
}

/** A notification to record: where it is and what it is about. */
export interface NewMessageRef {
  place: MessagePlace;
  subject: NotificationSubject;
}

/** A recorded notification: where it is and what it is about. */
export interface MessageRef extends MessagePlace {
  subject: NotificationSubject;
  /** Unix milliseconds. */
  sentAt: number;
  /** A deployment review's decision as its card shows it ("✅ … approved by …"). */
  decision?: string;
}

/** Longest review decision kept. */
const MAX_DECISION_LENGTH = 2100;

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
  kv: Kv,
  place: MessagePlace,
  subject: NotificationSubject,
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
  op: AtomicOperation,
  place: MessagePlace,
  subject: NotificationSubject,
  now: number,
): AtomicOperation {
  if (!validPlace(place)) return op;
  const ref: MessageRef = { ...place, subject, sentAt: now };
  return op.set(keyOf(place), ref, { expireIn: MESSAGE_REF_LIFETIME_MS });
}

/**
 * Records on the notification `ref` the review decision its card now shows, keeping its
 * lifetime; nothing when the record changed or expired meanwhile.
 */
export async function noteReviewDecision(
  kv: Kv,
  ref: MessageRef,
  decision: string,
  now: number = Date.now(),
): Promise<void> {
  if (!validPlace(ref) || decision.length > MAX_DECISION_LENGTH) return;
  const current = await kv.get<MessageRef>(keyOf(ref));
  const remaining = ref.sentAt + MESSAGE_REF_LIFETIME_MS - now;
  if (!current.value || current.value.sentAt !== ref.sentAt || remaining <= 0) return;
  await kv.atomic()
    .check(current)
    .set(keyOf(ref), { ...current.value, decision }, { expireIn: remaining })
    .commit();
}

/** Internal ids of groups created since internal ids exist: `#` and a ULID. */
const NEW_INTERNAL_ID = /^#[0-9A-HJKMNP-TV-Z]{26}$/i;

/** Whether `ref` was sent by the group that has its group id now (module comment). */
async function sentByCurrentGroup(kv: Kv, ref: MessageRef): Promise<boolean> {
  const current = (await readGroupEntry(kv, ref.subject.groupId)).entry;
  if (!current) return true; // no group has the id: the route lookup finds nothing to act for
  if (ref.subject.groupInternalId !== undefined) {
    return ref.subject.groupInternalId === current.internalId;
  }
  if (!NEW_INTERNAL_ID.test(current.internalId)) return true; // a group older than internal ids
  return ref.sentAt >= decodeUlidTime(current.internalId.slice(1));
}

/**
 * What the notification at `place` is about, or null (unknown, expired, malformed, or sent by
 * an earlier group with the same id).
 */
export async function getMessageRef(kv: Kv, place: MessagePlace): Promise<MessageRef | null> {
  if (!validPlace(place)) return null;
  const ref = (await kv.get<MessageRef>(keyOf(place))).value;
  if (!ref || ref.sentAt + MESSAGE_REF_LIFETIME_MS <= Date.now()) return null;
  return await sentByCurrentGroup(kv, ref) ? ref : null;
}

/** The most recent notifications of a chat (by message id, newest first), at most `limit`. */
export async function recentMessageRefs(
  kv: Kv,
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
