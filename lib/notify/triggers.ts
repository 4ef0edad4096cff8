/**
 * Why an event concerns someone personally, read from a GitHub payload: a review requested
 * from them (or from a team), an @-mention in a body, activity on their own pull request, a
 * failed run on their pull request's head, an assignment. Pure: who is linked, and who may see
 * the repository, is decided later (`recipients.ts`).
 */
import type { NotifyKind } from "../store/notify/notify_settings.ts";
import { normalizeGithubLogin } from "../store/auth/links.ts";
import type { ForgeEvent } from "../types.ts";
import { record } from "../format/read.ts";

/** Who a trigger is about: a login, a team (`org/slug`), or a pull request's head commit. */
type TriggerWho =
  | { via: "login"; login: string }
  | { via: "team"; team: string }
  | { via: "head"; sha: string; fallback?: string };

/** One reason an event concerns someone. */
export interface Trigger {
  kind: NotifyKind;
  /** In words, for the message ("Review requested from you"). */
  reason: string;
  who: TriggerWho;
}

/** Most mentions read from one body. */
const MAX_MENTIONS = 20;
/** Longest body read for mentions. */
const MAX_BODY = 65_536;

const FENCED = /```[\s\S]*?(?:```|$)/g;
const INLINE = /`[^`\n]*`/g;
const MENTION = /(?<![\w@`/.-])@([a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,38})(?![\w/-])/gi;

type Json = Record<string, unknown>;

function loginAt(value: unknown): string | null {
  return normalizeGithubLogin(record(value)?.login);
}

/** The logins a Markdown body @-mentions (code left out), lower case, at most 20. */
function mentionedLogins(body: unknown): string[] {
  if (typeof body !== "string") return [];
  const text = body.slice(0, MAX_BODY).replace(FENCED, " ").replace(INLINE, " ");
  const found = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    const login = normalizeGithubLogin(match[1]);
    if (login) found.add(login);
    if (found.size >= MAX_MENTIONS) break;
  }
  return [...found];
}

/** The body an event brings new text in, for mentions. */
function newBody(event: ForgeEvent): unknown {
  const p = event.payload;
  switch (`${event.kind}.${event.action}`) {
    case "issues.opened":
      return record(p.issue)?.body;
    case "pull_request.opened":
      return record(p.pull_request)?.body;
    case "pull_request_review.submitted":
      return record(p.review)?.body;
    case "discussion.created":
      return record(p.discussion)?.body;
    case "issue_comment.created":
    case "pull_request_review_comment.created":
    case "discussion_comment.created":
    case "commit_comment.created":
      return record(p.comment)?.body;
    default:
      return undefined;
  }
}

const REVIEW_REASONS = new Map([
  ["approved", "Your pull request was approved"],
  ["changes_requested", "Changes were requested on your pull request"],
  ["commented", "Your pull request was reviewed"],
]);

/** Activity on the author's own pull request. */
function ownPullRequest(event: ForgeEvent): Trigger | null {
  const p = event.payload;
  const at = (login: string | null, reason: string): Trigger | null =>
    login ? { kind: "my_pull_requests", reason, who: { via: "login", login } } : null;
  const pull = record(p.pull_request);
  switch (`${event.kind}.${event.action}`) {
    case "pull_request_review.submitted": {
      const state = String(record(p.review)?.state ?? "").toLowerCase();
      return at(loginAt(pull?.user), REVIEW_REASONS.get(state) ?? "Your pull request was reviewed");
    }
    case "pull_request_review_comment.created":
      return at(loginAt(pull?.user), "Your pull request got a review comment");
    case "issue_comment.created": {
      const issue = record(p.issue);
      return issue?.pull_request
        ? at(loginAt(issue.user), "Your pull request got a comment")
        : null;
    }
    case "pull_request.closed":
      return at(
        loginAt(pull?.user),
        pull?.merged === true ? "Your pull request was merged" : "Your pull request was closed",
      );
    default:
      return null;
  }
}

const FAILED = new Set(["failure", "timed_out", "startup_failure"]);

/** A failed workflow run or check suite on a pull request's head. */
function failedCheck(event: ForgeEvent): Trigger | null {
  if (event.action !== "completed") return null;
  const p = event.payload;
  const run = event.kind === "workflow_run"
    ? record(p.workflow_run)
    : event.kind === "check_suite"
    ? record(p.check_suite)
    : null;
  if (!run || !FAILED.has(String(run.conclusion))) return null;
  const pulls = Array.isArray(run.pull_requests) ? run.pull_requests : [];
  const sha = typeof run.head_sha === "string" && /^[0-9a-f]{40}$/.test(run.head_sha)
    ? run.head_sha
    : null;
  if (pulls.length === 0 || !sha) return null;
  const fallback = loginAt(run.actor);
  return {
    kind: "failed_checks",
    reason: event.kind === "workflow_run"
      ? "A workflow failed on your pull request"
      : "Checks failed on your pull request",
    who: { via: "head", sha, ...(fallback ? { fallback } : {}) },
  };
}

/** Every reason the event concerns someone, strongest first. */
export function triggersOf(event: ForgeEvent): Trigger[] {
  if (event.provider !== "github") return [];
  const p = event.payload;
  const triggers: Trigger[] = [];
  if (event.kind === "pull_request" && event.action === "review_requested") {
    const reviewer = loginAt(p.requested_reviewer);
    if (reviewer) {
      triggers.push({
        kind: "review_requested",
        reason: "Review requested from you",
        who: { via: "login", login: reviewer },
      });
    }
    const team = record(p.requested_team);
    const org = loginAt(p.organization) ?? loginAt(record(p.repository)?.owner);
    const slug = typeof team?.slug === "string" && /^[a-z0-9._-]{1,100}$/i.test(team.slug)
      ? team.slug.toLowerCase()
      : null;
    if (org && slug) {
      triggers.push({
        kind: "review_requested",
        reason: `Review requested from your team ${slug}`,
        who: { via: "team", team: `${org}/${slug}` },
      });
    }
  }
  if ((event.kind === "issues" || event.kind === "pull_request") && event.action === "assigned") {
    const assignee = loginAt(p.assignee);
    if (assignee) {
      triggers.push({
        kind: "assigned",
        reason: "Assigned to you",
        who: { via: "login", login: assignee },
      });
    }
  }
  for (const login of mentionedLogins(newBody(event))) {
    triggers.push({
      kind: "mentioned",
      reason: "You were mentioned",
      who: { via: "login", login },
    });
  }
  const own = ownPullRequest(event) ?? failedCheck(event);
  if (own) triggers.push(own);
  return triggers;
}

/** The pull request head an event makes known (repository lower case, sha, author), or null. */
export function pullHeadOf(
  event: ForgeEvent,
): { repository: string; sha: string; login: string } | null {
  if (event.provider !== "github" || event.kind !== "pull_request") return null;
  if (!["opened", "reopened", "synchronize"].includes(event.action ?? "")) return null;
  const pull = record(event.payload.pull_request);
  const sha = record(pull?.head)?.sha;
  const login = loginAt(pull?.user);
  const repository = record(event.payload.repository)?.full_name;
  if (typeof sha !== "string" || !/^[0-9a-f]{40}$/.test(sha) || !login) return null;
  if (typeof repository !== "string" || repository.length > 200) return null;
  return { repository: repository.toLowerCase(), sha, login };
}
