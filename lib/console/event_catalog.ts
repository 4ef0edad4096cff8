/**
 * The event kinds and actions the console's event picker offers: every kind the formatter
 * writes a message for (Gitea's events arrive under the same names), with the actions GitHub
 * sends for it, and `custom` for custom senders. A kind without actions has none to choose.
 * Browser-safe.
 */

/** Kinds with their actions, in the order the picker lists them. */
export const EVENT_CATALOG: ReadonlyArray<{ kind: string; actions: readonly string[] }> = [
  { kind: "push", actions: [] },
  {
    kind: "pull_request",
    actions: [
      "opened",
      "closed",
      "reopened",
      "edited",
      "synchronize",
      "ready_for_review",
      "converted_to_draft",
      "labeled",
      "unlabeled",
      "assigned",
      "unassigned",
      "review_requested",
      "review_request_removed",
      "milestoned",
      "demilestoned",
      "locked",
      "unlocked",
      "auto_merge_enabled",
      "auto_merge_disabled",
      "enqueued",
      "dequeued",
    ],
  },
  { kind: "pull_request_review", actions: ["submitted", "edited", "dismissed"] },
  { kind: "pull_request_review_comment", actions: ["created", "edited", "deleted"] },
  {
    kind: "issues",
    actions: [
      "opened",
      "closed",
      "reopened",
      "edited",
      "deleted",
      "labeled",
      "unlabeled",
      "assigned",
      "unassigned",
      "milestoned",
      "demilestoned",
      "pinned",
      "unpinned",
      "locked",
      "unlocked",
      "transferred",
    ],
  },
  { kind: "issue_comment", actions: ["created", "edited", "deleted"] },
  { kind: "commit_comment", actions: ["created"] },
  { kind: "create", actions: [] },
  { kind: "delete", actions: [] },
  {
    kind: "release",
    actions: [
      "published",
      "released",
      "prereleased",
      "created",
      "edited",
      "unpublished",
      "deleted",
    ],
  },
  { kind: "workflow_run", actions: ["requested", "in_progress", "completed"] },
  { kind: "workflow_job", actions: ["queued", "waiting", "in_progress", "completed"] },
  { kind: "check_run", actions: ["created", "completed", "rerequested", "requested_action"] },
  { kind: "check_suite", actions: ["requested", "rerequested", "completed"] },
  { kind: "status", actions: [] },
  { kind: "deployment", actions: ["created"] },
  { kind: "deployment_status", actions: ["created"] },
  { kind: "deployment_review", actions: ["requested", "approved", "rejected"] },
  { kind: "fork", actions: [] },
  { kind: "star", actions: ["created", "deleted"] },
  { kind: "watch", actions: ["started"] },
  { kind: "member", actions: ["added", "removed", "edited"] },
  { kind: "label", actions: ["created", "edited", "deleted"] },
  { kind: "milestone", actions: ["created", "opened", "closed", "edited", "deleted"] },
  {
    kind: "repository",
    actions: [
      "created",
      "deleted",
      "archived",
      "unarchived",
      "edited",
      "renamed",
      "transferred",
      "publicized",
      "privatized",
    ],
  },
  {
    kind: "discussion",
    actions: [
      "created",
      "edited",
      "deleted",
      "answered",
      "unanswered",
      "labeled",
      "unlabeled",
      "closed",
      "reopened",
      "pinned",
      "unpinned",
      "locked",
      "unlocked",
      "transferred",
      "category_changed",
    ],
  },
  { kind: "discussion_comment", actions: ["created", "edited", "deleted"] },
  {
    kind: "code_scanning_alert",
    actions: ["created", "fixed", "reopened", "closed_by_user", "reopened_by_user"],
  },
  {
    kind: "dependabot_alert",
    actions: ["created", "dismissed", "fixed", "reintroduced", "reopened"],
  },
  {
    kind: "secret_scanning_alert",
    actions: ["created", "resolved", "reopened", "revoked", "validated"],
  },
  { kind: "custom", actions: [] },
];

/** Splits an event pattern into kind and action: `pull_request.opened` → both, `push` → kind. */
export function splitEventPattern(pattern: string): { kind: string; action: string } {
  const dot = pattern.indexOf(".");
  return dot < 0
    ? { kind: pattern, action: "" }
    : { kind: pattern.slice(0, dot), action: pattern.slice(dot + 1) };
}

/** Joins a kind and an action back into a pattern (an empty action: every action). */
export function joinEventPattern(kind: string, action: string): string {
  return action === "" ? kind : `${kind}.${action}`;
}
