/**
 * How the send logs, audit and overview pages write values: times (UTC), targets, events,
 * durations, and the link to a message a platform posted. Pure functions, used on the server
 * and in islands.
 */
import type { SendLog } from "../../lib/store/delivery/send_logs.ts";

/** `2024-05-01 12:30:05` (UTC) of a Unix millisecond time. */
export function formatTime(at: number): string {
  return new Date(at).toISOString().slice(0, 19).replace("T", " ");
}

/** The ISO-8601 form of a time, for `<time datetime>`. */
export function isoTime(at: number): string {
  return new Date(at).toISOString();
}

/** `pull_request.opened`, or the kind alone. */
export function eventLabel(log: Pick<SendLog, "event" | "action">): string {
  return log.action === undefined ? log.event : `${log.event}.${log.action}`;
}

/** Where a unit goes, in words: `Discord #123 › thread 456`, `Telegram -100123 › topic 7`. */
export function targetLabel(target: SendLog["target"]): string {
  return target.platform === "discord"
    ? `Discord ${target.channelId}${target.threadId ? ` › thread ${target.threadId}` : ""}`
    : `Telegram ${target.chatId}${target.topicId ? ` › topic ${target.topicId}` : ""}`;
}

/** A duration in milliseconds, short: `840 ms`, `2.4 s`, `3 min`, `≥ 1 h`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return "≥ 1 h";
}

/** A share as a percentage with one decimal: `97.5 %`. */
export function formatPercent(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

/** The message a unit posted: its id, and a link when the platform's address can be built. */
export interface MessageRef {
  id: string;
  href?: string;
}

/**
 * The posted message of a unit. A Telegram message in a supergroup or channel with a numeric
 * id (`-100…`) links to `https://t.me/c/<id without -100>/<message>`, one in a public chat
 * named `@name` to `https://t.me/name/<message>`. A Discord link needs the server (guild) id,
 * which the platform's answer to a bot does not give, so Discord shows the message id only.
 */
export function messageRef(log: Pick<SendLog, "target" | "messageId">): MessageRef | null {
  if (log.messageId === undefined) return null;
  const id = log.messageId;
  if (log.target.platform !== "telegram" || !/^\d+$/.test(id)) return { id };
  const chat = log.target.chatId;
  const internal = /^-100(\d+)$/.exec(chat);
  if (internal) return { id, href: `https://t.me/c/${internal[1]}/${id}` };
  if (/^@[A-Za-z][A-Za-z0-9_]{3,31}$/.test(chat)) {
    return { id, href: `https://t.me/${chat.slice(1)}/${id}` };
  }
  return { id };
}
