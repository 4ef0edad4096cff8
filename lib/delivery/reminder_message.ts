/**
 * A review reminder's list and message: which open pull requests wait for review (not drafts,
 * with a review still requested from a person or a team), oldest first, each with its age and,
 * in a channel, whom it waits on (linked chat users mentioned), in a personal one the team it
 * waits on the person through when not requested from them directly; then a channel
 * reminder's stale work (pull requests and issues idle for a while). Rendered as Telegram HTML
 * or a Discord message within each platform's length, at most {@link MAX_LINES} pull requests.
 */
import type { ChatText } from "../format/chat_text.ts";
import type { OpenPull } from "../store/delivery/open_pulls.ts";
import type { Platform } from "../types.ts";
import { chatPlatform } from "./adapters.ts";

/** Most pull requests listed in one reminder. */
const MAX_LINES = 25;
const HOUR_MS = 3_600_000;

/** Whether a pull request waits for someone's review. */
export function waitsForReview(pull: OpenPull): boolean {
  return !pull.draft && pull.reviewers.length + pull.teams.length > 0;
}

/** A pull request as a reminder lists it. */
export interface ListedPull extends OpenPull {
  /** The team (`org/slug`) it waits on the person through, when not on them directly. */
  viaTeam?: string;
}

/** `pulls` oldest first, each once (by repository and number). */
export function oldestFirst<T extends OpenPull>(pulls: readonly T[]): T[] {
  const byKey = new Map<string, T>();
  for (const pull of pulls) byKey.set(`${pull.repository.toLowerCase()}#${pull.number}`, pull);
  return [...byKey.values()].sort((a, b) =>
    a.createdAt - b.createdAt || a.repository.localeCompare(b.repository) || a.number - b.number
  );
}

/** An age in words: minutes below an hour, hours below two days, else days. */
function ageText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(ms / HOUR_MS);
  return hours < 48 ? `${hours}h` : `${Math.floor(hours / 24)}d`;
}

/** A chat user to mention for a GitHub login, on the reminder's platform. */
type ChatMentions = ReadonlyMap<string, string>;

/** A pull request or issue with no activity for a while (a channel reminder's stale work). */
export interface StaleItem {
  kind: "pull request" | "issue";
  repository: string;
  number: number;
  title: string;
  url: string;
  /** Its last activity (Unix ms). */
  updatedAt: number;
}

/** What one reminder says. */
export interface ReminderList {
  heading: string;
  pulls: readonly ListedPull[];
  /** Stale work listed after the pull requests, when the reminder asks for it. */
  stale?: { heading: string; items: readonly StaleItem[] };
  /** Name whom each one waits on (channel reminders). */
  showReviewers: boolean;
  /** Linked chat user ids by lower-case GitHub login. */
  mentions: ChatMentions;
  /** What to say when `pulls` is empty. */
  allClearText: string;
  now: number;
}

/**
 * One pull request's line: its link, title and age, and whom it waits on when shown, or the
 * team it waits on the person through.
 */
function lineOf(text: ChatText, list: ReminderList, pull: ListedPull): string {
  const who = [
    ...pull.reviewers.map((login) => {
      const id = list.mentions.get(login.toLowerCase());
      return id ? text.mention(id, login) : `@${text.escape(login)}`;
    }),
    ...pull.teams.map((team) => `team ${text.escape(team)}`),
  ];
  const subject = text.link(`${text.escape(pull.repository)}#${pull.number}`, pull.url);
  const age = ageText(list.now - pull.createdAt);
  return `• ${subject} ${text.escape(pull.title)} (${age})` +
    (list.showReviewers && who.length > 0 ? ` waiting on ${who.join(", ")}` : "") +
    (pull.viaTeam ? ` via team ${text.escape(pull.viaTeam)}` : "");
}

/** One stale item's line: its link, title and how long it has been idle. */
function staleLine(text: ChatText, now: number, item: StaleItem): string {
  const subject = text.link(`${text.escape(item.repository)}#${item.number}`, item.url);
  return `• ${subject} ${text.escape(item.title)} (${item.kind}, idle ${
    ageText(now - item.updatedAt)
  })`;
}

/** Lines joined up to `limit` characters, with how many were left out. */
function fit(heading: string, lines: string[], total: number, limit: number): string {
  let text = heading;
  let shown = 0;
  for (const line of lines) {
    if (text.length + line.length + 40 > limit) break;
    text += `\n${line}`;
    shown++;
  }
  return shown < total ? `${text}\n… and ${total - shown} more` : text;
}

/** The message body for `platform`, or null when the list is empty and no all clear is asked. */
export function reminderBody(platform: Platform, list: ReminderList, allClear: boolean): unknown {
  const stale = list.stale?.items ?? [];
  const empty = list.pulls.length === 0 && stale.length === 0;
  if (empty && !allClear) return null;
  const text = chatPlatform(platform).text;
  if (empty) return text.body(text.plain(list.allClearText), list.mentions.values());
  const sections: string[] = [];
  if (list.pulls.length > 0) {
    const shown = list.pulls.slice(0, MAX_LINES).map((pull) => lineOf(text, list, pull));
    sections.push(fit(text.bold(text.escape(list.heading)), shown, list.pulls.length, text.limit));
  }
  if (list.stale && stale.length > 0) {
    const room = text.limit - sections.join("\n\n").length - 2;
    const shown = stale.slice(0, MAX_LINES).map((item) => staleLine(text, list.now, item));
    sections.push(fit(text.bold(text.escape(list.stale.heading)), shown, stale.length, room));
  }
  return text.body(sections.join("\n\n"), list.mentions.values());
}
