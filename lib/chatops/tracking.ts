/**
 * Message tracking: once a notification about a pull request or issue is sent, its place
 * (platform, chat, message id) is recorded with what it is about, so buttons and replies on it
 * know what they act on. The subject comes from the event's payload.
 */
import type { Logger } from "../log.ts";
import { loadEvent } from "../store/events.ts";
import { type MessageSubject, saveMessageRef } from "../store/message_refs.ts";
import type { SendLog } from "../store/send_logs.ts";
import type { Target } from "../types.ts";

/** Event kinds whose payload names one pull request or issue. */
const SUBJECT_KINDS = new Set([
  "pull_request",
  "pull_request_review",
  "pull_request_review_comment",
  "pull_request_review_thread",
  "issues",
  "issue_comment",
]);

const MAX_REPOSITORY_LENGTH = 140;

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : null;
}

function issueNumber(value: unknown): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** The pull request or issue a payload is about, without the route and group. */
export function subjectOfPayload(
  payload: Record<string, unknown>,
): Omit<MessageSubject, "routeId" | "groupId"> | null {
  const repository = record(payload.repository)?.full_name;
  if (
    typeof repository !== "string" || repository.length > MAX_REPOSITORY_LENGTH ||
    !repository.includes("/")
  ) return null;
  const pull = issueNumber(record(payload.pull_request)?.number);
  if (pull !== null) return { repository, kind: "pull", number: pull };
  const issue = record(payload.issue);
  const number = issueNumber(issue?.number);
  if (number === null) return null;
  return { repository, kind: issue?.pull_request ? "pull" : "issue", number };
}

/** The chat a message to `target` lands in: a Discord thread or channel, a Telegram chat. */
export function chatIdOf(target: Target): string {
  return target.platform === "discord" ? target.threadId ?? target.channelId : target.chatId;
}

/**
 * Records what the notification `log` sent is about, when it was sent, has a message id and
 * is about a pull request or issue. Never throws: tracking must not disturb delivery.
 */
export async function trackSentMessage(kv: Deno.Kv, log: SendLog, logger?: Logger): Promise<void> {
  if (log.status !== "ok" || !log.messageId || !SUBJECT_KINDS.has(log.event)) return;
  try {
    const event = await loadEvent(kv, log.eventId);
    const subject = event && subjectOfPayload(event.payload);
    if (!subject) return;
    await saveMessageRef(
      kv,
      { platform: log.platform, chatId: chatIdOf(log.target), messageId: log.messageId },
      { ...subject, routeId: log.routeId, groupId: log.groupId },
    );
  } catch (error) {
    logger?.warn("message tracking failed", { logId: log.id, error: String(error) });
  }
}
