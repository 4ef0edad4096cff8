/**
 * The account page's personal-notification switches: the same settings as `/gh notify` (each
 * kind on or off, pause all) and the quiet hours (time zone, hours, weekends), read from the
 * page's form. Settings are the signed-in person's own (by GitHub user id); the DEBUG_MODE
 * principal has none.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import {
  getNotifySettings,
  NOTIFY_KINDS,
  type NotifySettings,
  updateNotifySettings,
} from "../store/notify/notify_settings.ts";
import { parseQuietHours } from "../notify/quiet.ts";

/** The form's field for a kind's switch. */
export const kindField = (kind: string) => `notify_${kind}`;

/** The person's settings, or null for the DEBUG_MODE principal (no GitHub account). */
export async function readPersonalNotifications(
  kv: Kv,
  principal: Principal,
): Promise<NotifySettings | null> {
  return principal.debug ? null : await getNotifySettings(kv, principal.userId);
}

/** The form's fields as read by {@link settingsFromForm} (a file field reads as empty). */
interface FormFields {
  get(name: string): FormDataEntryValue | string | null;
}

/** The settings the form asks for, or what is wrong with its quiet hours. */
export function settingsFromForm(form: FormFields): NotifySettings | string {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : null;
  };
  const on = (name: string) => text(name) === "on";
  const kinds = Object.fromEntries(NOTIFY_KINDS.map((kind) => [kind, on(kindField(kind))]));
  let quietHours: NotifySettings["quietHours"] = null;
  if (on("quiet")) {
    const parsed = parseQuietHours({
      timeZone: text("quietTimeZone"),
      start: text("quietStart"),
      end: text("quietEnd"),
      weekends: on("quietWeekends"),
    });
    if (typeof parsed === "string") return parsed;
    quietHours = parsed;
  }
  return { kinds: kinds as NotifySettings["kinds"], paused: on("paused"), quietHours };
}

/** Saves the person's settings; false for the DEBUG_MODE principal. */
export async function writePersonalNotifications(
  kv: Kv,
  principal: Principal,
  settings: NotifySettings,
): Promise<boolean> {
  if (principal.debug) return false;
  await updateNotifySettings(kv, principal.userId, () => settings);
  return true;
}
