/** Formatters for pull requests, their reviews and their inline review comments. */

import { authorOf, branchUrl, compose, type EventContext } from "../context.ts";
import { COLORS } from "../colors.ts";
import {
  type Block,
  bold,
  field,
  line,
  link,
  type Message,
  type MessageField,
  type Span,
  text,
} from "../message.ts";
import { at, list, number, string } from "../read.ts";
import { humanize, plural, safeUrl } from "../text.ts";
import {
  bodyQuote,
  changeDetails,
  COMMENT_PREVIEW,
  commentSubject,
  commitLink,
  fileField,
  labelledLine,
  labelsField,
  loginsOf,
  numbered,
  userLink,
  usersField,
} from "./shared.ts";
import { ownValue } from "../../own_value.ts";

const VERBS: Record<string, string> = {
  synchronize: "updated",
  auto_merge_enabled: "auto-merge enabled",
  auto_merge_disabled: "auto-merge disabled",
  enqueued: "added to the merge queue",
  dequeued: "removed from the merge queue",
};

const SHOWS_BODY = new Set(["opened", "reopened", "ready_for_review"]);

function isMerged(pullRequest: unknown): boolean {
  return at(pullRequest, "merged") === true || string(at(pullRequest, "merged_at")) !== undefined;
}

function subjectOf(action: string, pullRequest: unknown): string {
  const name = numbered(pullRequest);
  if (action === "closed") {
    return `Pull request ${isMerged(pullRequest) ? "merged" : "closed"}: ${name}`;
  }
  if (action === "opened" && at(pullRequest, "draft") === true) {
    return `Draft pull request opened: ${name}`;
  }
  return `Pull request ${ownValue(VERBS, action) ?? humanize(action)}: ${name}`;
}

function colorOf(action: string, pullRequest: unknown): number {
  const draft = at(pullRequest, "draft") === true;
  switch (action) {
    case "closed":
      return isMerged(pullRequest) ? COLORS.purple : COLORS.red;
    case "opened":
    case "reopened":
      return draft ? COLORS.grey : COLORS.green;
    case "ready_for_review":
      return COLORS.green;
    case "converted_to_draft":
      return COLORS.grey;
    default:
      return COLORS.blue;
  }
}

/** `head → base`, each side linked to its branch (the head possibly in a fork). */
function branchPairField(context: EventContext, pullRequest: unknown): MessageField | undefined {
  const headRef = string(at(pullRequest, "head", "ref"));
  const baseRef = string(at(pullRequest, "base", "ref"));
  if (!headRef || !baseRef) return undefined;
  const headRepository = string(at(pullRequest, "head", "repo", "full_name"));
  const fromFork = headRepository !== undefined &&
    headRepository !== context.repository?.fullName;
  const headLabel = fromFork ? string(at(pullRequest, "head", "label")) ?? headRef : headRef;
  const headUrl = fromFork
    ? branchUrl(context, headRef, safeUrl(at(pullRequest, "head", "repo", "html_url")))
    : branchUrl(context, headRef);
  return field("Branch", [
    link(headLabel, headUrl, true),
    text(" → "),
    link(baseRef, branchUrl(context, baseRef), true),
  ]);
}

/** `+12 −3 in 2 files`, when the payload carries the counts. */
function changesField(pullRequest: unknown): MessageField | undefined {
  const additions = number(at(pullRequest, "additions"));
  const deletions = number(at(pullRequest, "deletions"));
  const files = number(at(pullRequest, "changed_files"));
  if (additions === undefined || deletions === undefined) return undefined;
  const inFiles = files === undefined ? "" : ` in ${plural(files, "file")}`;
  return field("Changes", text(`+${additions} −${deletions}${inFiles}`));
}

function commitsField(pullRequest: unknown): MessageField | undefined {
  const commits = number(at(pullRequest, "commits"));
  return commits === undefined ? undefined : field("Commits", text(String(commits)));
}

/** The requested reviewer: a user, or a team. */
function reviewerSpan(context: EventContext): Span | undefined {
  const team = string(at(context.payload, "requested_team", "name"));
  return userLink(context, context.payload.requested_reviewer) ??
    (team ? bold(`team ${team}`) : undefined);
}

function actionDetails(context: EventContext, action: string, pullRequest: unknown): Block[] {
  const payload = context.payload;
  switch (action) {
    case "review_requested":
    case "review_request_removed":
      return labelledLine("Reviewer: ", reviewerSpan(context));
    case "closed":
      return isMerged(pullRequest)
        ? labelledLine("Merged by ", userLink(context, at(pullRequest, "merged_by")))
        : [];
    case "synchronize": {
      const before = string(payload.before);
      const after = string(payload.after);
      return before && after
        ? [
          line(
            text("Head moved "),
            commitLink(context, before),
            text(" → "),
            commitLink(context, after),
          ),
        ]
        : [];
    }
    default:
      return SHOWS_BODY.has(action)
        ? bodyQuote(at(pullRequest, "body"))
        : changeDetails(context, action, pullRequest);
  }
}

function mentionsOf(context: EventContext, action: string, pullRequest: unknown): string[] {
  if (action === "review_requested") return loginsOf([context.payload.requested_reviewer]);
  if (action === "assigned") return loginsOf([context.payload.assignee]);
  if (action === "opened" || action === "ready_for_review") {
    return loginsOf(list(at(pullRequest, "requested_reviewers")));
  }
  return [];
}

/**
 * A pull request event. Merged and closed are told apart; opening, reopening
 * and marking ready quote the body; other actions say what changed (reviewer,
 * label, assignee, new head …). The branch pair is always shown.
 */
export function formatPullRequest(context: EventContext): Message {
  const pullRequest = context.payload.pull_request;
  const action = context.action ?? "updated";
  const opening = SHOWS_BODY.has(action);
  return compose(context, {
    subject: subjectOf(action, pullRequest),
    url: safeUrl(at(pullRequest, "html_url")),
    color: colorOf(action, pullRequest),
    description: actionDetails(context, action, pullRequest),
    fields: [
      branchPairField(context, pullRequest),
      opening || action === "closed" || action === "synchronize"
        ? changesField(pullRequest)
        : undefined,
      action === "synchronize" ? commitsField(pullRequest) : undefined,
      opening ? labelsField(pullRequest) : undefined,
      opening
        ? usersField(context, "Reviewers", list(at(pullRequest, "requested_reviewers")))
        : undefined,
    ],
    mentions: mentionsOf(context, action, pullRequest),
  });
}

/** A review state in GitHub's words, also from Gitea's `review.type`. */
function reviewStateOf(review: unknown): string {
  const state = string(at(review, "state"))?.toLowerCase();
  if (state) return state;
  const type = string(at(review, "type"))?.replace(/^pull_request_review_/, "");
  if (type === "approved") return "approved";
  if (type === "rejected") return "changes_requested";
  return "commented";
}

const REVIEW_SUBJECTS: Record<string, string> = {
  approved: "Pull request approved",
  changes_requested: "Changes requested",
  commented: "Pull request reviewed",
  dismissed: "Review dismissed",
};

const REVIEW_COLORS: Record<string, number> = {
  approved: COLORS.green,
  changes_requested: COLORS.red,
};

/** A review: approved (green), changes requested (red), commented or dismissed (grey), with its text. */
export function formatPullRequestReview(context: EventContext): Message {
  const { pull_request: pullRequest, review } = context.payload;
  const state = context.action === "dismissed" ? "dismissed" : reviewStateOf(review);
  const subject = context.action === "edited"
    ? "Review edited"
    : ownValue(REVIEW_SUBJECTS, state) ?? `Review ${humanize(state)}`;
  return compose(context, {
    subject: `${subject}: ${numbered(pullRequest)}`,
    url: safeUrl(at(review, "html_url")) ?? safeUrl(at(pullRequest, "html_url")),
    color: ownValue(REVIEW_COLORS, state) ?? COLORS.grey,
    description: bodyQuote(at(review, "body") ?? at(review, "content"), COMMENT_PREVIEW),
    author: authorOf(context, at(review, "user")),
  });
}

/** An inline comment on a pull request's diff, with its file and line. */
export function formatPullRequestReviewComment(context: EventContext): Message {
  const { pull_request: pullRequest, comment } = context.payload;
  return compose(context, {
    subject: commentSubject(context.action, numbered(pullRequest), "review comment"),
    url: safeUrl(at(comment, "html_url")) ?? safeUrl(at(pullRequest, "html_url")),
    color: COLORS.grey,
    description: bodyQuote(at(comment, "body"), COMMENT_PREVIEW),
    fields: [fileField(at(comment, "path"), at(comment, "line") ?? at(comment, "original_line"))],
    author: authorOf(context, at(comment, "user")),
  });
}
