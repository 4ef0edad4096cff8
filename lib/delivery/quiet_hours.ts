/**
 * Quiet hours (docs/noise.md): whether an instant falls within a route's quiet hours, and the
 * period it falls in. Times are read in the route's time zone with `Intl`, to the minute; an
 * end earlier than the start means the hours run past midnight.
 */
import type { RouteQuietHours } from "../types.ts";

const DAY_MINUTES = 24 * 60;
const MINUTE_MS = 60_000;

/** A quiet period: when it began and when it ends (Unix ms, to the minute). */
export interface QuietPeriod {
  opensAt: number;
  closesAt: number;
}

function minutesOf(clock: string): number {
  const [hours, minutes] = clock.split(":").map(Number);
  return hours * 60 + minutes;
}

/** The local wall clock at `now` in `timeZone`: minutes since midnight and the second. */
function localClock(timeZone: string, now: number): { minutes: number; second: number } {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(now));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { minutes: part("hour") * 60 + part("minute"), second: part("second") };
}

const wrap = (minutes: number) => ((minutes % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;

/**
 * The quiet period `now` falls in, or null outside the quiet hours. Across a daylight saving
 * change the period may end an hour early or late.
 */
export function quietPeriodAt(quiet: RouteQuietHours, now: number): QuietPeriod | null {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const clock = localClock(quiet.timeZone, now);
  const sinceStart = wrap(clock.minutes - start);
  if (sinceStart >= wrap(end - start)) return null;
  const minuteStart = now - clock.second * 1000 - (now % 1000);
  const opensAt = minuteStart - sinceStart * MINUTE_MS;
  return { opensAt, closesAt: opensAt + wrap(end - start) * MINUTE_MS };
}
