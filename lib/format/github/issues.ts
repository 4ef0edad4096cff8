/** Formatters for issues and for comments on issues and pull requests. */

import { authorOf, compose, type EventContext } from "../context.ts";
import { COLORS } from "../colors.ts";
import { type Block, field, line, link, type Message, text } from "../message.ts";
import { at, list, record, string } from "../read.ts";
import { humanize, safeUrl } from "../text.ts";
import {
  bodyQuote,
  changeDetails,
  COMMENT_PREVIEW,
  commentSubject,
  labelsField,
  loginsOf,
  numbered,
  usersField,
} from "./shared.ts";

const SHOWS_BODY = new Set(["opened", "reopened"]);

function verbOf(action: string, issue: unknown): string {
  if (action === "closed" && at(issue, "state_reason") === "not_planned") {
    return "closed as not planned";
  }
  return humanize(action);
}

/** Opened and reopened green; closed as completed purple, as not planned grey; deleted red. */
function colorOf(action: string, issue: unknown): number {
  switch (action) {
    case "opened":
    case "reopened":
      return COLORS.green;
    case "closed":
      return at(issue, "state_reason") === "not_planned" ? COLORS.grey : COLORS.purple;
    case "deleted":
      return COLORS.red;
    default:
      return COLORS.blue;
  }
}

function transferLine(context: EventContext): Block[] {
  const newIssue = at(context.payload, "changes", "new_issue");
  const target = string(at(context.payload, "changes", "new_repository", "full_name"));
  if (!target) return [];
  const number = string(at(newIssue, "number"));
  return [
    line(
      text("Moved to "),
      link(number ? `${target}#${number}` : target, safeUrl(at(newIssue, "html_url"))),
    ),
  ];
}

/**
 * An issue event: opening and reopening quote the body and list labels,
 * assignees and milestone; other actions say what changed.
 */
export function formatIssue(context: EventContext): Message {
  const issue = context.payload.issue;
  const action = context.action ?? "updated";
  const opening = SHOWS_BODY.has(action);
  const assignees = list(at(issue, "assignees"));
  const milestone = string(at(issue, "milestone", "title"));
  return compose(context, {
    subject: `Issue ${verbOf(action, issue)}: ${numbered(issue)}`,
    url: safeUrl(at(issue, "html_url")),
    color: colorOf(action, issue),
    description: opening
      ? bodyQuote(at(issue, "body"))
      : action === "transferred"
      ? transferLine(context)
      : changeDetails(context, action, issue),
    fields: opening
      ? [
        labelsField(issue),
        usersField(context, "Assignees", assignees),
        milestone ? field("Milestone", text(milestone)) : undefined,
      ]
      : [],
    mentions: action === "assigned"
      ? loginsOf([context.payload.assignee])
      : action === "opened"
      ? loginsOf(assignees)
      : [],
  });
}

/** True for a comment on a pull request (GitHub: `issue.pull_request`; Gitea: `is_pull`). */
function isPullRequestComment(payload: Record<string, unknown>): boolean {
  return payload.is_pull === true || record(at(payload, "issue", "pull_request")) !== undefined;
}

/** A comment on an issue or on a pull request's conversation, quoted. */
export function formatIssueComment(context: EventContext): Message {
  const { issue, comment } = context.payload;
  const target = `${isPullRequestComment(context.payload) ? "pull request" : "issue"} ${
    numbered(issue)
  }`;
  return compose(context, {
    subject: commentSubject(context.action, target),
    url: safeUrl(at(comment, "html_url")) ?? safeUrl(at(issue, "html_url")),
    color: COLORS.grey,
    description: bodyQuote(at(comment, "body"), COMMENT_PREVIEW),
    author: authorOf(context, at(comment, "user")),
  });
}
