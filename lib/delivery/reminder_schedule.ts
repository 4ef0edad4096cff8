/**
 * When a review reminder fires: its slots are the `HH:MM` times of its weekdays in its IANA
 * time zone, read with `Intl` (as quiet hours are, lib/delivery/quiet_hours.ts), so a slot
 * stays at the same local time across daylight saving changes. A local time that does not
 * exist on a day (skipped by a change) fires at the instant the zone's offset before the change
 * gives it, which the clock then shows an hour later.
 */
import type { ReminderSchedule } from "../store/config/reminders.ts";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    if (formatters.size > 200) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The local wall clock at `at` in `timeZone`, as if it were UTC (Unix ms, to the minute). */
function wallClock(timeZone: string, at: number): number {
  const parts = formatterOf(timeZone).formatToParts(new Date(at));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"));
}

/** The instant the wall clock of `timeZone` shows `wall` (a local time written as UTC ms). */
function instantOf(timeZone: string, wall: number): number {
  const first = wall - (wallClock(timeZone, wall) - wall);
  const offset = wallClock(timeZone, first) - first;
  return wall - offset;
}

/** The slots of `schedule` from one day before `from` to eight days after, in order. */
function slotsAround(schedule: ReminderSchedule, from: number): number[] {
  const today = Math.floor(wallClock(schedule.timeZone, from) / DAY_MS) * DAY_MS;
  const slots: number[] = [];
  for (let day = -1; day <= 8; day++) {
    const date = today + day * DAY_MS;
    if (!schedule.days.includes(new Date(date).getUTCDay())) continue;
    for (const time of schedule.times) {
      const [hours, minutes] = time.split(":").map(Number);
      slots.push(instantOf(schedule.timeZone, date + (hours * 60 + minutes) * MINUTE_MS));
    }
  }
  return slots.sort((a, b) => a - b);
}

/** The first slot of `schedule` after `at` (Unix ms). */
export function nextSlotAfter(schedule: ReminderSchedule, at: number): number {
  const next = slotsAround(schedule, at).find((slot) => slot > at);
  if (next === undefined) throw new RangeError("a reminder schedule without days or times");
  return next;
}

/** The last slot of `schedule` at or before `at`, or null when none is within a week. */
export function lastSlotAtOrBefore(schedule: ReminderSchedule, at: number): number | null {
  const slots = slotsAround(schedule, at).filter((slot) => slot <= at);
  return slots.at(-1) ?? null;
}
