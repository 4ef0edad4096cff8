/**
 * A person's quiet hours: whether an instant is quiet (their hours in their time zone, or a
 * weekend day when they chose quiet weekends) and when the quiet ends. The hours are read with
 * the routes' quiet-hours logic (`lib/delivery/quiet_hours.ts`).
 */
import { quietPeriodAt } from "../delivery/quiet_hours.ts";
import { CLOCK_TIME, isTimeZone } from "../model/noise_rules.ts";
import type { PersonalQuietHours } from "../store/notify/notify_settings.ts";

const MINUTE_MS = 60_000;

/** The local weekday and wall clock at `at` in `timeZone`. */
function localTime(timeZone: string, at: number): { weekday: string; minutes: number; ms: number } {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(at));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "0";
  return {
    weekday: part("weekday"),
    minutes: Number(part("hour")) * 60 + Number(part("minute")),
    ms: Number(part("second")) * 1000 + (at % 1000),
  };
}

function hoursPeriod(quiet: PersonalQuietHours, at: number) {
  return quiet.start === quiet.end ? null : quietPeriodAt(quiet, at);
}

function isWeekend(quiet: PersonalQuietHours, at: number): boolean {
  if (!quiet.weekends) return false;
  const day = localTime(quiet.timeZone, at).weekday;
  return day === "Sat" || day === "Sun";
}

/** Whether `at` is quiet for a person with `quiet` (null: never quiet). */
function isQuietAt(quiet: PersonalQuietHours | null, at: number): boolean {
  return quiet !== null && (isWeekend(quiet, at) || hoursPeriod(quiet, at) !== null);
}

/**
 * When the quiet that `now` falls in ends (Unix ms), or null when `now` is not quiet. A weekend
 * ends at local midnight; the hours end at their end; each is followed into the other.
 */
export function quietEndsAt(quiet: PersonalQuietHours | null, now: number): number | null {
  if (!quiet || !isQuietAt(quiet, now)) return null;
  let at = now;
  for (let step = 0; step < 10 && isQuietAt(quiet, at); step++) {
    const period = hoursPeriod(quiet, at);
    if (period) {
      at = period.closesAt;
    } else {
      const local = localTime(quiet.timeZone, at);
      at = at - local.ms + (24 * 60 - local.minutes) * MINUTE_MS;
    }
  }
  return at;
}

/** Quiet hours from untrusted input, or what is wrong with it. */
export function parseQuietHours(input: {
  timeZone: unknown;
  start: unknown;
  end: unknown;
  weekends: boolean;
}): PersonalQuietHours | string {
  const timeZone = typeof input.timeZone === "string" ? input.timeZone.trim() : "";
  if (!isTimeZone(timeZone)) return "The time zone is not an IANA time zone (Europe/Berlin).";
  const start = typeof input.start === "string" ? input.start : "";
  const end = typeof input.end === "string" ? input.end : "";
  if (!CLOCK_TIME.test(start) || !CLOCK_TIME.test(end)) {
    return "Quiet hours are HH:MM, from 00:00 to 23:59.";
  }
  return { timeZone, start, end, weekends: input.weekends };
}
