/**
 * What a GitHub event is about, read from its payload (for chat-ops buttons, message tracking,
 * threads and edit in place): the pull request or issue its payload names, and
 * which buttons its notification offers (Merge only on an open pull request, Close or Reopen by
 * its state). A notification is actionable only when the page it links to (the item's
 * `html_url`) is the item its repository and number name, and its buttons carry a tag of that
 * item, so a press acts on what the card shows.
 */
import type { ForgeEvent } from "../types.ts";
import type { DiscordActions } from "./discord.ts";
import { parseRef } from "./issue_ref.ts";

/** The pull request or issue a payload names. */
interface PayloadSubject {
  /** `owner/name`. */
  repository: string;
  kind: "pull" | "issue";
  number: number;
}

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
): PayloadSubject | null {
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
 * A short tag of one pull request or issue (`owner/repo#number`, without case): the buttons of
 * its notification carry it, and a press whose tag is not the notification's item is refused.
 * It tells items apart; it is no secret (the notification names the item anyway).
 */
export function subjectTag(repository: string, number: number): string {
  let hash = 0x811c9dc5;
  for (const char of `${repository.toLowerCase()}#${number}`) {
    hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/** Whether `url` is the https page on github.com of the item `repository` and `number` name. */
function pageNamesItem(url: string, repository: string, number: number): boolean {
  if (!url.startsWith("https://")) return false;
  const parsed = parseRef(url);
  return parsed.ok && parsed.ref.number === number &&
    `${parsed.ref.owner}/${parsed.ref.repo}`.toLowerCase() === repository.toLowerCase();
}

/**
 * The pull request or issue a notification of `payload` may act on, with its page: null when
 * the payload names none, or when its page (`html_url`) is another item than its repository and
 * number say (the card would link to one item while its buttons act on another).
 */
export function actionableSubject(
  payload: Record<string, unknown>,
): { subject: PayloadSubject; url?: string } | null {
  const subject = subjectOfPayload(payload);
  if (!subject) return null;
  const item = record(payload.pull_request) ?? record(payload.issue);
  const url = item?.html_url;
  if (url === undefined || url === null) return { subject };
  if (typeof url !== "string" || !pageNamesItem(url, subject.repository, subject.number)) {
    return null;
  }
  return { subject, url };
}

/**
 * The buttons a notification of `event` carries: only for a GitHub event about one pull request
 * or issue whose page is that item (see {@link actionableSubject}); null otherwise.
 */
export function actionsOfEvent(event: ForgeEvent): DiscordActions | null {
  if (event.provider !== "github" || !SUBJECT_KINDS.has(event.kind)) return null;
  const actionable = actionableSubject(event.payload);
  if (!actionable) return null;
  const { subject, url } = actionable;
  const item = record(event.payload.pull_request) ?? record(event.payload.issue);
  return {
    kind: subject.kind,
    state: stateOf(item, subject.kind === "pull"),
    tag: subjectTag(subject.repository, subject.number),
    ...(url ? { url } : {}),
  };
}
