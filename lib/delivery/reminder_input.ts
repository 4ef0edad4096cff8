/**
 * What a person may ask of a review reminder, checked the same way from the console and from
 * chat: weekdays, `HH:MM` times, an IANA time zone, an optional age threshold and stale-work
 * filter (channel reminders) and the "all clear" switch. Answers the settings or a sentence saying what is
 * wrong (the console answers it as a 400, the chat as a reply).
 */
import type { ReminderSchedule, StaleFilter } from "../store/config/reminders.ts";
import { CLOCK_TIME, isTimeZone } from "../model/noise_rules.ts";

/** Reminders one person may keep. */
export const MAX_PERSONAL_REMINDERS = 5;
/** Reminders one group may keep. */
export const MAX_GROUP_REMINDERS = 10;
/** Most times per day. */
export const MAX_TIMES = 4;
/** The largest age threshold, in hours (30 days). */
export const MAX_OLDER_THAN_HOURS = 720;
/** The longest idle time for stale work, in days. */
export const MAX_STALE_DAYS = 365;
/** Most labels to include, and most to exclude. */
export const MAX_FILTER_LABELS = 10;
/** The longest label name. */
export const MAX_LABEL_CHARS = 50;
const MAX_ZONE_LENGTH = 64;

/** Weekday names as written, by the number `Date.getUTCDay` uses. */
export const DAY_NAMES = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

/** A reminder's settings as given (JSON body or parsed chat text). */
export interface ReminderInput {
  days: unknown;
  times: unknown;
  timeZone: unknown;
  olderThanHours?: unknown;
  allClear?: unknown;
  staleDays?: unknown;
  labels?: unknown;
  excludeLabels?: unknown;
  /** A personal reminder's chat platform, when not sent from a chat. */
  platform?: unknown;
}

/** Checked settings. */
interface ReminderSettings {
  schedule: ReminderSchedule;
  olderThanHours?: number;
  stale?: StaleFilter;
  allClear: boolean;
}

function daysOf(value: unknown): number[] | string {
  const error = `days: give 1-7 of ${DAY_NAMES.join(", ")}, each once`;
  if (!Array.isArray(value) || value.length === 0 || value.length > 7) return error;
  const days = new Set<number>();
  for (const day of value) {
    const index = typeof day === "string" ? DAY_NAMES.indexOf(day.toLowerCase() as never) : -1;
    if (index < 0 || days.has(index)) return error;
    days.add(index);
  }
  return [...days].sort();
}

function timesOf(value: unknown): string[] | string {
  const error = `times: give 1-${MAX_TIMES} different times as HH:MM (00:00-23:59)`;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_TIMES) return error;
  if (!value.every((time) => typeof time === "string" && CLOCK_TIME.test(time))) return error;
  if (new Set(value).size !== value.length) return error;
  return [...value as string[]].sort();
}

function labelListOf(value: unknown, name: string): string[] | string {
  if (value === undefined) return [];
  const error = `${name}: give up to ${MAX_FILTER_LABELS} different label names of ` +
    `1-${MAX_LABEL_CHARS} characters`;
  if (!Array.isArray(value) || value.length > MAX_FILTER_LABELS) return error;
  const ok = value.every((label) =>
    typeof label === "string" && label.trim().length > 0 && label.length <= MAX_LABEL_CHARS
  );
  if (!ok) return error;
  const labels = (value as string[]).map((label) => label.trim());
  return new Set(labels.map((l) => l.toLowerCase())).size === labels.length ? labels : error;
}

/** The stale-work filter of `input`, none, or what is wrong. */
function staleOf(input: ReminderInput, channel: boolean): StaleFilter | undefined | string {
  const { staleDays } = input;
  if (staleDays === undefined) {
    return input.labels !== undefined || input.excludeLabels !== undefined
      ? "labels, excludeLabels: only with staleDays"
      : undefined;
  }
  if (!channel) return "staleDays: only a channel reminder lists stale work";
  if (
    !Number.isInteger(staleDays) || (staleDays as number) < 1 ||
    (staleDays as number) > MAX_STALE_DAYS
  ) {
    return `staleDays: a whole number of days, 1-${MAX_STALE_DAYS}`;
  }
  const labels = labelListOf(input.labels, "labels");
  if (typeof labels === "string") return labels;
  const excludeLabels = labelListOf(input.excludeLabels, "excludeLabels");
  if (typeof excludeLabels === "string") return excludeLabels;
  return { days: staleDays as number, labels, excludeLabels };
}

/**
 * Checks `input`; `channel` allows the age threshold and stale work. Answers the settings, or what is wrong.
 */
export function checkReminderInput(
  input: ReminderInput,
  channel: boolean,
): ReminderSettings | string {
  const days = daysOf(input.days);
  if (typeof days === "string") return days;
  const times = timesOf(input.times);
  if (typeof times === "string") return times;
  const zone = input.timeZone;
  if (typeof zone !== "string" || zone.length > MAX_ZONE_LENGTH || !isTimeZone(zone)) {
    return "timeZone: give an IANA time zone such as Europe/Berlin or UTC";
  }
  const settings: ReminderSettings = {
    schedule: { days, times, timeZone: zone },
    allClear: false,
  };
  if (input.allClear !== undefined) {
    if (typeof input.allClear !== "boolean") return "allClear: true or false";
    settings.allClear = input.allClear;
  }
  if (input.olderThanHours !== undefined) {
    if (!channel) return "olderThanHours: only a channel reminder has an age threshold";
    const hours = input.olderThanHours;
    if (
      !Number.isInteger(hours) || (hours as number) < 1 || (hours as number) > MAX_OLDER_THAN_HOURS
    ) {
      return `olderThanHours: a whole number of hours, 1-${MAX_OLDER_THAN_HOURS}`;
    }
    settings.olderThanHours = hours as number;
  }
  const stale = staleOf(input, channel);
  if (typeof stale === "string") return stale;
  if (stale) settings.stale = stale;
  return settings;
}

/** How the chat command is written, for answers to a malformed one. */
export const REMIND_USAGE = "Use /gh remind <days> <times> <time zone> [older <hours>] " +
  "[stale <days> [labels <a,b>] [exclude <c,d>]] [allclear], e.g. /gh remind mon-fri 09:00 Europe/Berlin; days: mon-fri, daily or a list " +
  "such as mon,wed; times: up to 4, comma-separated. /gh remind list shows the reminders " +
  "here, /gh remind delete <id> removes one.";

function dayRange(word: string): string[] | null {
  const lowered = word.toLowerCase();
  if (lowered === "daily") return [...DAY_NAMES];
  if (lowered === "weekdays") return ["mon", "tue", "wed", "thu", "fri"];
  const range = lowered.match(/^([a-z]{3})-([a-z]{3})$/);
  if (!range) return lowered.split(",");
  const start = DAY_NAMES.indexOf(range[1] as never);
  const end = DAY_NAMES.indexOf(range[2] as never);
  if (start < 0 || end < 0) return null;
  const days: string[] = [];
  for (let day = start;; day = (day + 1) % 7) {
    days.push(DAY_NAMES[day]);
    if (day === end) return days;
  }
}

/**
 * Reads the words after `/gh remind` (`mon-fri 09:00,14:00 Europe/Berlin older 24 stale 14
 * labels bug exclude wontfix allclear`) into an input to check, or answers the usage.
 */
export function parseRemindText(text: string): ReminderInput | string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length < 3 || words.length > 12) return REMIND_USAGE;
  const days = dayRange(words[0]);
  if (!days) return REMIND_USAGE;
  const input: ReminderInput = { days, times: words[1].split(","), timeZone: words[2] };
  for (let index = 3; index < words.length; index++) {
    const word = words[index].toLowerCase();
    if (word === "allclear") input.allClear = true;
    else if (word === "older" && index + 1 < words.length) {
      const hours = words[++index].replace(/h$/i, "");
      input.olderThanHours = /^\d{1,6}$/.test(hours) ? Number(hours) : -1;
    } else if (word === "stale" && index + 1 < words.length) {
      const days = words[++index].replace(/d$/i, "");
      input.staleDays = /^\d{1,6}$/.test(days) ? Number(days) : -1;
    } else if ((word === "labels" || word === "exclude") && index + 1 < words.length) {
      const labels = words[++index].split(",").filter(Boolean);
      if (word === "labels") input.labels = labels;
      else input.excludeLabels = labels;
    } else return REMIND_USAGE;
  }
  return input;
}
