/**
 * Adding, listing and removing review reminders, for the console and the chat commands alike:
 * the settings are checked (lib/delivery/reminder_input.ts), a channel reminder may only post
 * into one of its group's allowed targets and only lists its group's repositories, a person or
 * group keeps a bounded number, and the first fire job is added in the same commit as the
 * reminder. A channel reminder changes what a group posts, so adding or removing one is
 * audited; a personal one is the person's own business and is not.
 */
import type { Kv } from "../store/backend/types.ts";
import { randomHex } from "../crypto.ts";
import { isTargetAllowed } from "../store/config/allowed_targets.ts";
import { newAuditEntry } from "../store/telemetry/audit.ts";
import type { GroupEntry } from "../store/config/groups.ts";
import { chatUsersLinkedTo } from "../store/auth/links.ts";
import {
  createReminder,
  deleteReminder,
  listReminders,
  type Reminder,
  type ReminderOwnerRef,
} from "../store/config/reminders.ts";
import { describeTargetRef } from "../target_ref.ts";
import type { Platform, Target } from "../types.ts";
import {
  checkReminderInput,
  DAY_NAMES,
  MAX_GROUP_REMINDERS,
  MAX_PERSONAL_REMINDERS,
  type ReminderInput,
} from "./reminder_input.ts";
import { nextSlotAfter } from "./reminder_schedule.ts";
import { scheduleReminder } from "./reminder_jobs.ts";

/** A reminder as the console and the chat show it. */
export interface ReminderView {
  id: string;
  scope: "personal" | "channel";
  groupId?: string;
  days: string[];
  times: string[];
  timeZone: string;
  olderThanHours?: number;
  /** Also list pull requests and issues idle this many days (channel reminders). */
  staleDays?: number;
  labels?: string[];
  excludeLabels?: string[];
  allClear: boolean;
  target: Target;
  /** The next time it fires (ISO 8601). */
  nextAt: string;
}

/** What adding a reminder came to: the reminder, or a refusal with its HTTP status. */
export type AddOutcome = { ok: true; reminder: ReminderView } | {
  ok: false;
  status: 400 | 409;
  error: string;
};

/** Someone acting: a GitHub account. */
export interface Person {
  userId: string;
  login: string;
}

/** `reminder` as shown. */
export function viewOf(reminder: Reminder, now: number): ReminderView {
  const { schedule, scope } = reminder;
  return {
    id: reminder.id,
    scope: scope.kind,
    ...(scope.kind === "channel" ? { groupId: scope.groupId } : {}),
    days: schedule.days.map((day) => DAY_NAMES[day]),
    times: schedule.times,
    timeZone: schedule.timeZone,
    ...(scope.kind === "channel" && scope.olderThanHours !== undefined
      ? { olderThanHours: scope.olderThanHours }
      : {}),
    ...(scope.kind === "channel" && scope.stale
      ? {
        staleDays: scope.stale.days,
        labels: scope.stale.labels,
        excludeLabels: scope.stale.excludeLabels,
      }
      : {}),
    allClear: reminder.allClear,
    target: reminder.target,
    nextAt: new Date(nextSlotAfter(schedule, now)).toISOString(),
  };
}

async function add(
  kv: Kv,
  reminder: Reminder,
  limit: number,
  now: number,
  audit?: Parameters<typeof createReminder>[4],
): Promise<AddOutcome> {
  const outcome = await createReminder(
    kv,
    reminder,
    limit,
    (op) => scheduleReminder(op, reminder, now),
    audit,
  );
  return outcome === "created"
    ? { ok: true, reminder: viewOf(reminder, now) }
    : { ok: false, status: 409, error: `At most ${limit} reminders; remove one first` };
}

/** The private chat of the chat account linked to `person` on `platform`, or null. */
async function linkedPrivateChat(
  kv: Kv,
  person: Person,
  platform: Platform,
): Promise<Target | null> {
  const [chatUser] = await chatUsersLinkedTo(kv, platform, person.login);
  if (!chatUser) return null;
  // A Discord DM channel is found (or opened) from the user's id when the reminder is sent.
  return platform === "telegram"
    ? { platform, chatId: chatUser }
    : { platform, channelId: chatUser };
}

const LINK_FIRST: Record<Platform, string> = {
  telegram: "Link a Telegram account first: send /gh login to the bot in a private chat",
  discord: "Link a Discord account first: use /gh login in a server with the bot",
};

/**
 * Adds a personal reminder of `person`, sent to `target` (their private chat with the bot), or
 * when no target is given, to the account linked on `input.platform` (when absent: Telegram if
 * linked, else Discord). A Discord target names the user; the DM channel is found when sending.
 */
export async function addPersonalReminder(
  kv: Kv,
  person: Person,
  input: ReminderInput,
  now: number,
  target?: Target,
): Promise<AddOutcome> {
  const settings = checkReminderInput(input, false);
  if (typeof settings === "string") return { ok: false, status: 400, error: settings };
  const platform = input.platform;
  if (platform !== undefined && platform !== "telegram" && platform !== "discord") {
    return { ok: false, status: 400, error: "platform: telegram or discord" };
  }
  const to = target ??
    (platform
      ? await linkedPrivateChat(kv, person, platform)
      : await linkedPrivateChat(kv, person, "telegram") ??
        await linkedPrivateChat(kv, person, "discord"));
  if (!to) return { ok: false, status: 400, error: LINK_FIRST[platform ?? "telegram"] };
  return await add(
    kv,
    {
      id: randomHex(8),
      scope: { kind: "personal", userId: person.userId, login: person.login },
      schedule: settings.schedule,
      target: to,
      allClear: settings.allClear,
      lastSlot: 0,
      createdAt: now,
      createdBy: person,
    },
    MAX_PERSONAL_REMINDERS,
    now,
  );
}

/**
 * Adds a channel reminder of `group` posting into `target`, which must be on the group's
 * allowed targets; audited as done by `actor` `via` the console or chat.
 */
export async function addChannelReminder(
  kv: Kv,
  actor: Person,
  group: GroupEntry,
  target: Target,
  input: ReminderInput,
  now: number,
  via: "console" | "chat",
): Promise<AddOutcome> {
  const settings = checkReminderInput(input, true);
  if (typeof settings === "string") return { ok: false, status: 400, error: settings };
  const groupId = group.group.id;
  if (!await isTargetAllowed(kv, groupId, target)) {
    return {
      ok: false,
      status: 400,
      error: `target: ${describeTargetRef(target)} is not one of group ${groupId}'s targets`,
    };
  }
  const reminder: Reminder = {
    id: randomHex(8),
    scope: {
      kind: "channel",
      groupId,
      internalId: group.internalId,
      ...(settings.olderThanHours === undefined ? {} : { olderThanHours: settings.olderThanHours }),
      ...(settings.stale ? { stale: settings.stale } : {}),
    },
    schedule: settings.schedule,
    target,
    allClear: settings.allClear,
    lastSlot: 0,
    createdAt: now,
    createdBy: actor,
  };
  const entry = newAuditEntry({
    actor,
    action: "reminder.create",
    groupId,
    target: describeTargetRef(target),
    detail: { reminderId: reminder.id, via, ...viewOf(reminder, now) },
  }, now);
  const internalIds = new Map([[groupId, group.internalId]]);
  return await add(kv, reminder, MAX_GROUP_REMINDERS, now, { entry, internalIds });
}

/** The owner of a person's or a group's reminders. */
function ownerRef(owner: Person | GroupEntry): ReminderOwnerRef {
  return "internalId" in owner
    ? { kind: "group", internalId: owner.internalId }
    : { kind: "user", userId: owner.userId };
}

/** The reminders of a person or a group, as shown. */
export async function remindersOf(
  kv: Kv,
  owner: Person | GroupEntry,
  now: number,
): Promise<ReminderView[]> {
  return (await listReminders(kv, ownerRef(owner))).map((reminder) => viewOf(reminder, now));
}

/**
 * Removes the reminder `id` of a person or a group (a group's audited as done by `actor`);
 * false when they have none with that id.
 */
export async function removeReminder(
  kv: Kv,
  owner: Person | GroupEntry,
  id: string,
  actor: Person,
  via: "console" | "chat",
  now: number,
): Promise<boolean> {
  if (!("internalId" in owner)) return await deleteReminder(kv, ownerRef(owner), id);
  const entry = newAuditEntry({
    actor,
    action: "reminder.delete",
    groupId: owner.group.id,
    detail: { reminderId: id, via },
  }, now);
  const internalIds = new Map([[owner.group.id, owner.internalId]]);
  return await deleteReminder(kv, ownerRef(owner), id, { entry, internalIds });
}
