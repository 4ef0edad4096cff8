/**
 * Review reminders (docs/reminders.md): each under `["reminders", id]`, and the ids of a
 * person's or a group's reminders in one list under `["reminder_owners", …]`, which a create
 * or delete checks, so the limit per owner holds under concurrent requests. A reminder keeps the
 * last slot it fired for; the fire job moves it forward in a commit checked against the record
 * (lib/delivery/reminder_jobs.ts), so a slot fires once across restarts and instances.
 */
import type { AtomicOperation, Kv, KvEntry } from "../backend/types.ts";
import type { Target } from "../../types.ts";
import { addAuditEntry, type AuditEntry } from "../telemetry/audit.ts";
import { reminderKey, reminderOwnerKey, type ReminderOwnerRef } from "../keys.ts";

export type { ReminderOwnerRef } from "../keys.ts";

/** When a reminder fires: weekdays (0 Sunday … 6 Saturday), `HH:MM` times, an IANA zone. */
export interface ReminderSchedule {
  days: number[];
  times: string[];
  timeZone: string;
}

/** Stale work a channel reminder also lists: no activity for `days`, filtered by labels. */
export interface StaleFilter {
  days: number;
  /** List only items with one of these labels (none: every item). */
  labels: string[];
  /** Leave out items with any of these labels. */
  excludeLabels: string[];
}

/** Whose list a reminder sends. */
type ReminderScope =
  /** The open pull requests waiting on this person's review. */
  | { kind: "personal"; userId: string; login: string }
  /** The open pull requests of the group's repositories waiting for review. */
  | {
    kind: "channel";
    groupId: string;
    internalId: string;
    olderThanHours?: number;
    stale?: StaleFilter;
  };

/** A stored reminder. */
export interface Reminder {
  id: string;
  scope: ReminderScope;
  schedule: ReminderSchedule;
  /** Where it is sent: the person's private chat, or one of the group's allowed targets. */
  target: Target;
  /** Send "nothing is waiting" rather than nothing when the list is empty. */
  allClear: boolean;
  /** The last slot it fired (or passed) for (Unix ms; 0: none yet). */
  lastSlot: number;
  createdAt: number;
  createdBy: { userId: string; login: string };
}

/** An audit entry about a group, with the group's internal id to index it under. */
interface GroupAudit {
  entry: AuditEntry;
  internalIds: ReadonlyMap<string, string>;
}

/** The ids of one owner's reminders. */
interface OwnerList {
  ids: string[];
}

/** The owner a reminder is listed under. */
export function ownerOf(reminder: Pick<Reminder, "scope">): ReminderOwnerRef {
  return reminder.scope.kind === "personal"
    ? { kind: "user", userId: reminder.scope.userId }
    : { kind: "group", internalId: reminder.scope.internalId };
}

/** The reminder `id` as stored (with its version), or null. */
export async function getReminderEntry(kv: Kv, id: string): Promise<KvEntry<Reminder> | null> {
  const entry = await kv.get<Reminder>(reminderKey(id));
  return entry.versionstamp === null ? null : entry as KvEntry<Reminder>;
}

/** The reminders of `owner`, in the order they were added. */
export async function listReminders(kv: Kv, owner: ReminderOwnerRef): Promise<Reminder[]> {
  const list = (await kv.get<OwnerList>(reminderOwnerKey(owner))).value;
  if (!list || list.ids.length === 0) return [];
  const entries = await kv.getMany<Reminder[]>(list.ids.map((id) => reminderKey(id)));
  return entries.flatMap((entry) => entry.value ? [entry.value] : []);
}

/**
 * Saves a new reminder, its place in its owner's list and `audit` (when given) in one commit,
 * with `schedule(op)` adding its first fire job; "limit" when the owner has `limit` already.
 */
export async function createReminder(
  kv: Kv,
  reminder: Reminder,
  limit: number,
  schedule: (op: AtomicOperation) => void,
  audit?: GroupAudit,
): Promise<"created" | "limit"> {
  const ownerKey = reminderOwnerKey(ownerOf(reminder));
  for (let attempt = 0; attempt < 5; attempt++) {
    const list = await kv.get<OwnerList>(ownerKey);
    const ids = list.value?.ids ?? [];
    if (ids.length >= limit) return "limit";
    const op = kv.atomic().check(list).check({ key: reminderKey(reminder.id), versionstamp: null })
      .set(reminderKey(reminder.id), reminder)
      .set(ownerKey, { ids: [...ids, reminder.id] } satisfies OwnerList);
    schedule(op);
    if (audit) addAuditEntry(op, audit.entry, audit.internalIds);
    if ((await op.commit()).ok) return "created";
  }
  throw new Error("the reminders changed too often to add one");
}

/**
 * Deletes the reminder `id` of `owner` and its place in the list (with `audit`) in one commit;
 * false when the owner has no such reminder.
 */
export async function deleteReminder(
  kv: Kv,
  owner: ReminderOwnerRef,
  id: string,
  audit?: GroupAudit,
): Promise<boolean> {
  const ownerKey = reminderOwnerKey(owner);
  for (let attempt = 0; attempt < 5; attempt++) {
    const list = await kv.get<OwnerList>(ownerKey);
    const ids = list.value?.ids ?? [];
    if (!ids.includes(id)) return false;
    const op = kv.atomic().check(list).delete(reminderKey(id))
      .set(ownerKey, { ids: ids.filter((other) => other !== id) } satisfies OwnerList);
    if (audit) addAuditEntry(op, audit.entry, audit.internalIds);
    if ((await op.commit()).ok) return true;
  }
  throw new Error("the reminders changed too often to delete one");
}

/**
 * Moves the reminder read as `entry` to `lastSlot`, with `more(op)` adding the jobs that follow
 * in the same commit; false when the reminder changed meanwhile (nothing written).
 */
export async function advanceReminder(
  kv: Kv,
  entry: KvEntry<Reminder>,
  lastSlot: number,
  more: (op: AtomicOperation) => void,
): Promise<boolean> {
  const op = kv.atomic().check(entry).set(entry.key, { ...entry.value, lastSlot });
  more(op);
  return (await op.commit()).ok;
}
