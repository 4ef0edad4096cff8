import type { ReminderView } from "../../lib/delivery/reminder_service.ts";
import { DAY_NAMES } from "../../lib/delivery/reminder_input.ts";
import { CSRF_FIELD } from "../../lib/auth/access.ts";
import { describeTargetRef } from "../../lib/target_ref.ts";
import type { Target } from "../../lib/types.ts";
import { CARD, DANGER_BUTTON, INPUT, MUTED, PRIMARY_BUTTON } from "../layout/ui.ts";

/** What the reminders card shows and where its forms go. */
export interface RemindersCardProps {
  reminders: ReminderView[];
  csrf: string;
  /** A group's channel reminders (with the targets to choose from), or the person's own. */
  group?: { id: string; targets: Target[] };
  canEdit: boolean;
}

function targetValue(target: Target): string {
  return target.platform === "discord"
    ? `discord:${target.channelId}`
    : `telegram:${target.chatId}`;
}

function Describe({ reminder }: { reminder: ReminderView }) {
  return (
    <span class="text-sm">
      {reminder.days.join(", ")} at {reminder.times.join(", ")} ({reminder.timeZone})
      {reminder.olderThanHours ? `, older than ${reminder.olderThanHours}h` : ""}
      {reminder.staleDays ? `, stale work after ${reminder.staleDays} days` : ""}
      {reminder.labels?.length ? ` with ${reminder.labels.join(", ")}` : ""}
      {reminder.excludeLabels?.length ? ` without ${reminder.excludeLabels.join(", ")}` : ""}
      {reminder.allClear ? ", all clear" : ""} to {reminder.scope === "personal"
        ? `your ${reminder.target.platform === "discord" ? "Discord" : "Telegram"} private chat`
        : describeTargetRef(reminder.target)}
      <span class={`block ${MUTED}`}>next: {reminder.nextAt}</span>
    </span>
  );
}

/** Review reminders: the list, and forms to add and remove them (posted to `/admin/reminders`). */
export function RemindersCard(props: RemindersCardProps) {
  const { group, csrf } = props;
  const personal = group === undefined;
  return (
    <section class={`${CARD} p-4 sm:p-6`} aria-labelledby="reminders-heading">
      <h2 id="reminders-heading" class="text-lg font-semibold">Review reminders</h2>
      <p class={`mt-1 mb-4 text-sm ${MUTED}`}>
        {personal
          ? "The open pull requests waiting on your review, oldest first, sent to your private " +
            "chat with the Telegram bot or your Discord DMs at the times you choose. Nothing is " +
            "sent when none waits."
          : "The open pull requests of this group's repositories waiting for review, with whom " +
            "they wait on, posted into one of the group's chat targets at the times you choose."}
      </p>
      {props.reminders.length === 0
        ? <p class={`text-sm ${MUTED}`}>No reminders yet.</p>
        : (
          <ul class="flex flex-col gap-2">
            {props.reminders.map((reminder) => (
              <li key={reminder.id} class="flex flex-wrap items-center justify-between gap-2">
                <Describe reminder={reminder} />
                {props.canEdit && (
                  <form method="post" action="/admin/reminders">
                    <input type="hidden" name={CSRF_FIELD} value={csrf} />
                    <input
                      type="hidden"
                      name="intent"
                      value={personal ? "delete-personal" : "delete-group"}
                    />
                    {group && <input type="hidden" name="group" value={group.id} />}
                    <input type="hidden" name="id" value={reminder.id} />
                    <button type="submit" class={DANGER_BUTTON}>Remove</button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        )}
      {props.canEdit && (
        <form method="post" action="/admin/reminders" class="mt-4 flex flex-col gap-3">
          <input type="hidden" name={CSRF_FIELD} value={csrf} />
          <input type="hidden" name="intent" value={personal ? "add-personal" : "add-group"} />
          {group && <input type="hidden" name="group" value={group.id} />}
          <fieldset class="flex flex-wrap gap-3 text-sm">
            <legend class="mb-1 font-medium">Days</legend>
            {DAY_NAMES.map((day) => (
              <label key={day} class="flex items-center gap-1">
                <input
                  type="checkbox"
                  name="days"
                  value={day}
                  checked={day !== "sat" && day !== "sun"}
                />
                {day}
              </label>
            ))}
          </fieldset>
          <label class="text-sm">
            <span class="font-medium">Times (HH:MM, comma-separated)</span>
            <input class={INPUT} name="times" value="09:00" required />
          </label>
          <label class="text-sm">
            <span class="font-medium">Time zone (IANA)</span>
            <input class={INPUT} name="timeZone" value="UTC" required />
          </label>
          {personal && (
            <label class="text-sm">
              <span class="font-medium">Send to</span>
              <select class={INPUT} name="platform">
                <option value="">Telegram if linked, else Discord</option>
                <option value="telegram">Telegram</option>
                <option value="discord">Discord</option>
              </select>
            </label>
          )}
          {group && (
            <>
              <label class="text-sm">
                <span class="font-medium">Post into</span>
                <select class={INPUT} name="target" required>
                  {group.targets.map((target) => (
                    <option key={targetValue(target)} value={targetValue(target)}>
                      {describeTargetRef(target)}
                    </option>
                  ))}
                </select>
              </label>
              <label class="text-sm">
                <span class="font-medium">Only older than (hours, optional)</span>
                <input class={INPUT} name="olderThanHours" inputMode="numeric" />
              </label>
              <label class="text-sm">
                <span class="font-medium">
                  Also list pull requests and issues idle for (days, optional)
                </span>
                <input class={INPUT} name="staleDays" inputMode="numeric" />
              </label>
              <label class="text-sm">
                <span class="font-medium">Stale work: only with labels (comma-separated)</span>
                <input class={INPUT} name="labels" />
              </label>
              <label class="text-sm">
                <span class="font-medium">Stale work: leave out labels (comma-separated)</span>
                <input class={INPUT} name="excludeLabels" />
              </label>
            </>
          )}
          <label class="flex items-center gap-2 text-sm">
            <input type="checkbox" name="allClear" />
            Say "all clear" when nothing waits
          </label>
          <div>
            <button type="submit" class={PRIMARY_BUTTON}>Add reminder</button>
          </div>
        </form>
      )}
    </section>
  );
}
