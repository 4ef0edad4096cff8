/**
 * Feeds the index of open issues (lib/store/delivery/open_issues.ts) from the GitHub events a
 * group receives, for the stale-work part of channel reminders: `issues` (opened, reopened,
 * edited, labeled, unlabeled, closed, deleted, transferred) and `issue_comment` (created) keep
 * the issue as the payload shows it, its last activity its `updated_at`; closed, deleted or
 * transferred, it leaves the index. An event older than the entry's last activity changes
 * nothing, so events handled out of order leave the latest state. Comments on pull requests (an issue with `pull_request`) are
 * not issues and are left to the pull request index's refresh. Every value is checked and cut
 * to size; a payload that is not an issue changes nothing.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Logger } from "../log.ts";
import {
  applyIssueChange,
  type IssueChange,
  type OpenIssue,
} from "../store/delivery/open_issues.ts";
import type { ForgeEvent } from "../types.ts";
import { applyToEachGroup } from "./index_groups.ts";
import { labelsOf, timeOf, urlOf } from "./pull_index.ts";
import { record } from "../format/read.ts";

const REPOSITORY = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;
const TITLE_CHARS = 200;
const MAX_NUMBER = 1e9;
const ISSUE_ACTIONS = new Set(["opened", "reopened", "edited", "labeled", "unlabeled", "closed"]);
const GONE_ACTIONS = new Set(["closed", "deleted", "transferred"]);

/** An issue object as the index keeps it, or null when it is not one (or is a pull request). */
function openIssueOf(repository: string, value: unknown): OpenIssue | null {
  const issue = record(value);
  if (!issue || !REPOSITORY.test(repository) || issue.pull_request !== undefined) return null;
  const number = issue.number;
  if (!Number.isInteger(number) || (number as number) < 1 || (number as number) > MAX_NUMBER) {
    return null;
  }
  const createdAt = timeOf(issue.created_at);
  const updatedAt = timeOf(issue.updated_at);
  const url = urlOf(issue.html_url);
  if (!Number.isFinite(createdAt) || !Number.isFinite(updatedAt) || !url) return null;
  return {
    repository,
    number: number as number,
    title: typeof issue.title === "string" ? issue.title.slice(0, TITLE_CHARS) : "",
    url,
    createdAt,
    updatedAt,
    labels: labelsOf(issue.labels),
  };
}

/** What `event` changes in the issue index, or null. */
function issueChangeOf(event: ForgeEvent): IssueChange | null {
  if (event.provider !== "github" || event.action === undefined) return null;
  const isIssue = event.kind === "issues" &&
    (ISSUE_ACTIONS.has(event.action) || GONE_ACTIONS.has(event.action));
  const isComment = event.kind === "issue_comment" && event.action === "created";
  if (!isIssue && !isComment) return null;
  const repository = record(event.payload.repository)?.full_name;
  if (typeof repository !== "string") return null;
  const issue = openIssueOf(repository, event.payload.issue);
  if (!issue) return null;
  const state = record(event.payload.issue)?.state;
  return GONE_ACTIONS.has(event.action) || state === "closed"
    ? { kind: "closed", repository, number: issue.number, updatedAt: issue.updatedAt }
    : { kind: "open", issue };
}

/**
 * Applies what `event` changes to the issue index of each group it entered (`internalIds`). A
 * failure is logged and never holds delivery up.
 */
export async function indexIssueEvent(
  kv: Kv,
  log: Logger,
  event: ForgeEvent,
  internalIds: readonly string[],
): Promise<void> {
  const change = issueChangeOf(event);
  if (!change) return;
  const apply = (internalId: string) => applyIssueChange(kv, internalId, change);
  await applyToEachGroup(log, "issue index", event, internalIds, apply);
}
