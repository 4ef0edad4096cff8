/**
 * A person's personal-notification settings, by GitHub user id (`docs/personal.md`):
 * which kinds they get, whether all are paused, and their quiet hours. Private to the person:
 * nothing here changes a group's behaviour, so writes are not audited.
 */
import type { Kv } from "../backend/types.ts";
import { notifySettingsKey } from "../keys.ts";

/** What a personal notification can be about. */
export const NOTIFY_KINDS = [
  "review_requested",
  "mentioned",
  "my_pull_requests",
  "failed_checks",
  "assigned",
] as const;

/** One kind of personal notification. */
export type NotifyKind = typeof NOTIFY_KINDS[number];

/** Whether `value` names a kind. */
export function isNotifyKind(value: unknown): value is NotifyKind {
  return typeof value === "string" && (NOTIFY_KINDS as readonly string[]).includes(value);
}

/** Hours in which nothing is sent (local to `timeZone`), and whether weekends are quiet too. */
export interface PersonalQuietHours {
  timeZone: string;
  /** `HH:MM`. */
  start: string;
  /** `HH:MM`; earlier than `start` runs past midnight; equal to `start` means no quiet hours. */
  end: string;
  /** Saturday and Sunday are quiet all day. */
  weekends: boolean;
}

/** A person's settings. */
export interface NotifySettings {
  kinds: Record<NotifyKind, boolean>;
  /** Nothing is sent while paused (`/gh notify off`). */
  paused: boolean;
  quietHours: PersonalQuietHours | null;
}

/** Review requests and mentions on, everything else off: the settings after linking. */
function defaultNotifySettings(): NotifySettings {
  return {
    kinds: {
      review_requested: true,
      mentioned: true,
      my_pull_requests: false,
      failed_checks: false,
      assigned: false,
    },
    paused: false,
    quietHours: null,
  };
}

/** Stored settings read over the defaults (a kind never set keeps its default). */
function withDefaults(stored: Partial<NotifySettings> | null): NotifySettings {
  const settings = defaultNotifySettings();
  if (!stored) return settings;
  for (const kind of NOTIFY_KINDS) {
    if (typeof stored.kinds?.[kind] === "boolean") settings.kinds[kind] = stored.kinds[kind];
  }
  settings.paused = stored.paused === true;
  settings.quietHours = stored.quietHours ?? null;
  return settings;
}

/** The person's settings (the defaults for kinds they never set). */
export async function getNotifySettings(kv: Kv, userId: string): Promise<NotifySettings> {
  return withDefaults((await kv.get<Partial<NotifySettings>>(notifySettingsKey(userId))).value);
}

/**
 * Applies `change` to the person's current settings and saves them in one checked commit
 * (retried when they changed meanwhile); the saved settings.
 */
export async function updateNotifySettings(
  kv: Kv,
  userId: string,
  change: (settings: NotifySettings) => NotifySettings,
): Promise<NotifySettings> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = await kv.get<Partial<NotifySettings>>(notifySettingsKey(userId));
    const next = change(withDefaults(entry.value));
    const result = await kv.atomic().check(entry).set(notifySettingsKey(userId), next).commit();
    if (result.ok) return next;
  }
  throw new Error(`Cannot save the notification settings of user ${userId}: they kept changing`);
}
