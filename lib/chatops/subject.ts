/**
 * What a GitHub event is about for chat-ops: the pull request or issue its payload names, and
 * which buttons its notification offers (Merge only on an open pull request, Close or Reopen by
 * its state).
 */
import type { DiscordActions } from "../format/discord.ts";
import type { MessageSubject } from "../store/message_refs.ts";
import type { ForgeEvent } from "../types.ts";

/** Event kinds whose payload names one pull request or issue. */
export const SUBJECT_KINDS: ReadonlySet<string> = new Set([
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

function stateOf(item: Record<string, unknown> | null, pull: boolean): DiscordActions["state"] {
  if (pull && (item?.merged === true || typeof item?.merged_at === "string")) return "merged";
  if (pull && typeof record(item?.pull_request)?.merged_at === "string") return "merged";
  return item?.state === "closed" ? "closed" : "open";
}

/**
 * The buttons a notification of `event` carries: only for a GitHub event about one pull request
 * or issue; null otherwise.
 */
export function actionsOfEvent(event: ForgeEvent): DiscordActions | null {
  if (event.provider !== "github" || !SUBJECT_KINDS.has(event.kind)) return null;
  const subject = subjectOfPayload(event.payload);
  if (!subject) return null;
  const item = record(event.payload.pull_request) ?? record(event.payload.issue);
  const url = item?.html_url;
  return {
    kind: subject.kind,
    state: stateOf(item, subject.kind === "pull"),
    ...(typeof url === "string" && url.startsWith("https://") ? { url } : {}),
  };
}
