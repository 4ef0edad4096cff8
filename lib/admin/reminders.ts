/**
 * The console's review reminders: a person's own (any signed-in person) and a group's channel
 * reminders (members read them, owners and admins add and remove them). The rules live in
 * lib/delivery/reminder_service.ts; this turns refusals into HTTP errors.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import {
  addChannelReminder,
  type AddOutcome,
  addPersonalReminder,
  remindersOf,
  type ReminderView,
  removeReminder,
} from "../delivery/reminder_service.ts";
import { HttpError } from "../fresh/mod.ts";
import type { Target } from "../types.ts";
import { actorOf, requireGroupEntry } from "./guards.ts";

/** Settings as the console sends them (already shaped by the endpoint's schema). */
export interface ReminderBody {
  days: string[];
  times: string[];
  timeZone: string;
  allClear?: boolean;
  olderThanHours?: number;
  staleDays?: number;
  labels?: string[];
  excludeLabels?: string[];
  /** A personal reminder's platform (checked by the service). */
  platform?: string;
}

function added(outcome: AddOutcome): ReminderView {
  if (!outcome.ok) throw new HttpError(outcome.status, outcome.error);
  return outcome.reminder;
}

/** The caller's own reminders. */
export async function listMyReminders(kv: Kv, principal: Principal) {
  return { reminders: await remindersOf(kv, actorOf(principal), Date.now()) };
}

/** Adds a personal reminder for the caller. */
export async function addMyReminder(kv: Kv, principal: Principal, body: ReminderBody) {
  return added(await addPersonalReminder(kv, actorOf(principal), body, Date.now()));
}

/** Removes one of the caller's reminders (404 when they have none with that id). */
export async function deleteMyReminder(kv: Kv, principal: Principal, id: string) {
  const actor = actorOf(principal);
  if (!await removeReminder(kv, actor, id, actor, "console", Date.now())) {
    throw new HttpError(404, `No reminder ${id}`);
  }
  return { ok: true as const };
}

/** The group's channel reminders. */
export async function listGroupReminders(kv: Kv, principal: Principal, groupId: string) {
  const entry = await requireGroupEntry(kv, principal, groupId, "read");
  return { reminders: await remindersOf(kv, entry, Date.now()) };
}

/** Adds a channel reminder to the group (audited). */
export async function addGroupReminder(
  kv: Kv,
  principal: Principal,
  groupId: string,
  body: ReminderBody & { target: Target },
) {
  const entry = await requireGroupEntry(kv, principal, groupId, "edit");
  const { target, ...input } = body;
  return added(
    await addChannelReminder(kv, actorOf(principal), entry, target, input, Date.now(), "console"),
  );
}

/** Removes one of the group's reminders (audited; 404 when it has none with that id). */
export async function deleteGroupReminder(
  kv: Kv,
  principal: Principal,
  groupId: string,
  id: string,
) {
  const entry = await requireGroupEntry(kv, principal, groupId, "edit");
  if (!await removeReminder(kv, entry, id, actorOf(principal), "console", Date.now())) {
    throw new HttpError(404, `No reminder ${id} in group ${groupId}`);
  }
  return { ok: true as const };
}
