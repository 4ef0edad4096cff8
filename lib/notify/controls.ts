/**
 * A person's controls over their personal notifications, shared by `/gh notify` in the
 * Telegram private chat and the console's account page: the kinds in words, turning one on or
 * off, pausing all, and a summary of the settings.
 */
import {
  NOTIFY_KINDS,
  type NotifyKind,
  type NotifySettings,
  updateNotifySettings,
} from "../store/notify/notify_settings.ts";
import type { Kv } from "../store/backend/types.ts";

/** Each kind in words. */
export const KIND_LABELS: ReadonlyMap<NotifyKind, string> = new Map([
  ["review_requested", "Review requests"],
  ["mentioned", "Mentions"],
  ["my_pull_requests", "My pull requests: reviewed, commented, merged, closed"],
  ["failed_checks", "Failed checks on my pull requests"],
  ["assigned", "Assignments"],
]);

/**
 * Switches one kind (on to off, off to on) within the settings' own update, so two quick presses
 * switch it twice; the saved settings.
 */
export function toggleKind(kv: Kv, userId: string, kind: NotifyKind): Promise<NotifySettings> {
  return updateNotifySettings(
    kv,
    userId,
    (s) => ({ ...s, kinds: { ...s.kinds, [kind]: !s.kinds[kind] } }),
  );
}

/** Pauses (or resumes) every personal notification; the saved settings. */
export function setPaused(kv: Kv, userId: string, paused: boolean): Promise<NotifySettings> {
  return updateNotifySettings(kv, userId, (s) => ({ ...s, paused }));
}

/** How a chat switches the settings, in words, for {@link settingsSummary}. */
interface SwitchHints {
  /** How to switch one kind and pause all ("press a button to switch it; …"). */
  change: string;
  /** How to resume ("Send /gh notify on to resume."). */
  resume: string;
}

/** The Telegram private chat's hints. */
export const TELEGRAM_HINTS: SwitchHints = {
  change: "press a button to switch it; /gh notify off pauses all",
  resume: "Send /gh notify on to resume.",
};

/** The settings in a few lines of plain text, with `hints` on how to change them. */
export function settingsSummary(settings: NotifySettings, hints: SwitchHints): string {
  const lines = [
    settings.paused
      ? `Personal notifications are paused. ${hints.resume}`
      : `Personal notifications (${hints.change}):`,
    ...NOTIFY_KINDS.map((kind) =>
      `${settings.kinds[kind] ? "on " : "off"}  ${KIND_LABELS.get(kind)}`
    ),
  ];
  const quiet = settings.quietHours;
  if (quiet) {
    lines.push(
      `Quiet hours: ${quiet.start}–${quiet.end} ${quiet.timeZone}` +
        (quiet.weekends ? ", and weekends" : "") + " (change them on the console's account page)",
    );
  }
  return lines.join("\n");
}
