/**
 * The account page's personal-notification switches: one checkbox per kind, pause all, and
 * quiet hours (time zone, from, to, weekends). Posted to /admin/account with intent `notify`.
 */
import { CSRF_FIELD } from "../../lib/auth/access.ts";
import { KIND_LABELS } from "../../lib/notify/controls.ts";
import { kindField } from "../../lib/admin/personal_notifications.ts";
import { NOTIFY_KINDS, type NotifySettings } from "../../lib/store/notify/notify_settings.ts";
import { INPUT, MUTED, PRIMARY_BUTTON } from "../layout/ui.ts";

const CHECKBOX = "mt-0.5 size-4 shrink-0 accent-indigo-600";

/** The form, filled with `settings`. */
export function PersonalNotificationsForm(props: { settings: NotifySettings; csrf: string }) {
  const { settings } = props;
  const quiet = settings.quietHours;
  return (
    <form method="post" action="/admin/account" class="mt-3 flex flex-col gap-3">
      <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
      <input type="hidden" name="intent" value="notify" />
      <p class={`text-sm ${MUTED}`}>
        Private messages from the bot (Telegram private chat, Discord DM) about what waits on you,
        only for repositories your GitHub account can read. <code>/gh notify</code>{" "}
        in the Telegram private chat has the same switches.
      </p>
      {NOTIFY_KINDS.map((kind) => (
        <label key={kind} class="flex items-start gap-3 text-sm">
          <input
            type="checkbox"
            name={kindField(kind)}
            class={CHECKBOX}
            checked={settings.kinds[kind]}
          />
          <span>{KIND_LABELS.get(kind)}</span>
        </label>
      ))}
      <label class="flex items-start gap-3 text-sm">
        <input type="checkbox" name="paused" class={CHECKBOX} checked={settings.paused} />
        <span class="font-medium">Pause all personal notifications</span>
      </label>
      <fieldset class="flex flex-wrap items-end gap-3 text-sm">
        <label class="flex items-center gap-2">
          <input type="checkbox" name="quiet" class={CHECKBOX} checked={quiet !== null} />
          <span>Quiet hours</span>
        </label>
        <label class="flex flex-col gap-1">
          Time zone
          <input
            name="quietTimeZone"
            class={INPUT}
            value={quiet?.timeZone ?? "UTC"}
            maxLength={64}
          />
        </label>
        <label class="flex flex-col gap-1">
          From
          <input type="time" name="quietStart" class={INPUT} value={quiet?.start ?? "22:00"} />
        </label>
        <label class="flex flex-col gap-1">
          To
          <input type="time" name="quietEnd" class={INPUT} value={quiet?.end ?? "07:00"} />
        </label>
        <label class="flex items-center gap-2">
          <input
            type="checkbox"
            name="quietWeekends"
            class={CHECKBOX}
            checked={quiet?.weekends ?? false}
          />
          <span>and weekends</span>
        </label>
      </fieldset>
      <div>
        <button type="submit" class={PRIMARY_BUTTON}>Save personal notifications</button>
      </div>
    </form>
  );
}
