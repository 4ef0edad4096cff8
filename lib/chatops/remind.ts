/**
 * `/gh remind` from chat (docs/reminders.md): in the private chat with the bot, a personal
 * reminder of the linked person, sent to that chat; in a chat a group posts into, a channel
 * reminder of that group, for its owners and admins. `/gh remind list` shows the reminders of
 * the place, `/gh remind delete <id>` removes one. The rules are those of the console
 * (lib/delivery/reminder_service.ts); this turns them into replies.
 */
import type { Kv } from "../store/backend/types.ts";
import {
  addChannelReminder,
  addPersonalReminder,
  type Person,
  remindersOf,
  type ReminderView,
  removeReminder,
} from "../delivery/reminder_service.ts";
import { parseRemindText, REMIND_USAGE } from "../delivery/reminder_input.ts";
import type { GroupEntry } from "../store/config/groups.ts";
import { groupsOfChat } from "./chat_groups.ts";
import { targetRefKey } from "../target_ref.ts";
import type { Target } from "../types.ts";

/** Where the command was sent: the private chat with the bot, or a chat groups post into. */
interface RemindPlace {
  private: boolean;
  target: Target;
}

const REMINDER_ID = /^[0-9a-f]{16}$/;

function labelsText(view: ReminderView): string {
  const only = view.labels?.length ? ` with ${view.labels.join(",")}` : "";
  const not = view.excludeLabels?.length ? ` without ${view.excludeLabels.join(",")}` : "";
  return only + not;
}

function describe(view: ReminderView): string {
  const older = view.olderThanHours ? `, older than ${view.olderThanHours}h` : "";
  const stale = view.staleDays ? `, stale after ${view.staleDays}d${labelsText(view)}` : "";
  const clear = view.allClear ? ", all clear" : "";
  return `${view.id}: ${view.days.join(",")} ${view.times.join(",")} ${view.timeZone}` +
    `${older}${stale}${clear} (next ${view.nextAt.slice(0, 16).replace("T", " ")} UTC)`;
}

const NOT_MANAGER = "Only an owner or admin of a group that posts into this chat can set its " +
  "reminders.";

/** Runs `/gh remind <rest>` for the linked `actor` in `place`; answers the reply. */
export async function runRemind(
  kv: Kv,
  actor: Person,
  place: RemindPlace,
  rest: string,
  now: number,
): Promise<string> {
  const [verb, argument = "", ...more] = rest.trim().split(/\s+/);
  const groups = place.private ? [] : (await groupsOfChat(kv, actor, place.target)).managed;
  if (!place.private && groups.length === 0) return NOT_MANAGER;
  const owners: (Person | GroupEntry)[] = place.private ? [actor] : groups;
  if (verb?.toLowerCase() === "list" && argument === "") {
    const here = targetRefKey(place.target);
    const views = (await Promise.all(owners.map((owner) => remindersOf(kv, owner, now)))).flat()
      .filter((view) => view.scope === "personal" || targetRefKey(view.target) === here);
    return views.length === 0
      ? "No reminders here."
      : ["Reminders:", ...views.map(describe)].join("\n");
  }
  if (verb?.toLowerCase() === "delete") {
    if (!REMINDER_ID.test(argument) || more.length > 0) return REMIND_USAGE;
    for (const owner of owners) {
      if (await removeReminder(kv, owner, argument, actor, "chat", now)) {
        return `Reminder ${argument} removed.`;
      }
    }
    return `No reminder ${argument} here.`;
  }
  const input = parseRemindText(rest);
  if (typeof input === "string") return input;
  if (groups.length > 1) {
    return "Several groups you manage post into this chat: add the reminder on the group's " +
      "page in the console.";
  }
  const outcome = place.private
    ? await addPersonalReminder(kv, actor, input, now, place.target)
    : await addChannelReminder(kv, actor, groups[0], place.target, input, now, "chat");
  if (!outcome.ok) return outcome.error;
  return `Reminder set: ${describe(outcome.reminder)}. Remove it with /gh remind delete ` +
    `${outcome.reminder.id}.`;
}
