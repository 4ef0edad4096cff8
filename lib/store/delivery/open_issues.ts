/**
 * The index of open issues per group and repository, kept from the issue events the group
 * receives (lib/delivery/issue_index.ts) for the stale-work part of channel reminders. An issue
 * lives under `["open_issues", groupInternalId, repository, number]` (repository in lower case)
 * and each repository followed under `["issue_repositories", groupInternalId, repository]`,
 * keyed by the group's internal id so one group's events never add to another's list. Bounded:
 * at most {@link MAX_ISSUES_PER_REPOSITORY} issues per repository and
 * {@link MAX_ISSUE_REPOSITORIES_PER_GROUP} repositories per group. Issues come from received
 * events only (no refresh from GitHub): one with no event since Switchyard started receiving
 * is not listed, and a closing event missed leaves its entry until the issue's next event.
 */
import type { Kv, KvKey } from "../backend/types.ts";
import {
  issueRepositoriesPrefix,
  issueRepositoryKey,
  openIssueKey,
  openIssuesOfRepositoryPrefix,
  openIssuesPrefix,
} from "../keys.ts";
import { retryOnConflict } from "../conflict_retry.ts";

/** An open issue as the index keeps it. */
export interface OpenIssue {
  /** `owner/name` as GitHub spells it. */
  repository: string;
  number: number;
  title: string;
  url: string;
  /** When it was opened (Unix ms). */
  createdAt: number;
  /** Its last activity: the payload's `updated_at` (Unix ms). */
  updatedAt: number;
  /** Label names. */
  labels: string[];
}

/** Most issues kept per repository. */
const MAX_ISSUES_PER_REPOSITORY = 200;
/** Most repositories one group's issue index follows. */
const MAX_ISSUE_REPOSITORIES_PER_GROUP = 100;
/** Most entries read for one group. */
const MAX_GROUP_ISSUES = MAX_ISSUES_PER_REPOSITORY * 10;

/** A closed issue, kept a while so an older event arriving late does not bring it back. */
interface ClosedIssue {
  closed: true;
  /** The closing event's `updated_at` (Unix ms). */
  updatedAt: number;
}

/** How long a closed issue's marker is kept. */
export const CLOSED_KEEP_MS = 7 * 24 * 3_600_000;

/** The change an event makes to one issue: keep it as given, or drop it. */
export type IssueChange = { kind: "open"; issue: OpenIssue } | {
  kind: "closed";
  repository: string;
  number: number;
  updatedAt: number;
};

/** Whether `limit` entries are stored under `prefix` already. */
async function isFull(kv: Kv, prefix: KvKey, limit: number): Promise<boolean> {
  let count = 0;
  for await (const _ of kv.list({ prefix }, { limit })) count++;
  return count >= limit;
}

/**
 * Applies `change` to the issue index of the group `internalId`, unless the entry holds a
 * later activity already (events may be handled out of order): a closed issue leaves a marker
 * for {@link CLOSED_KEEP_MS}. A new issue is left out when its repository holds
 * {@link MAX_ISSUES_PER_REPOSITORY} already or the group follows the most repositories; false
 * then.
 */
export async function applyIssueChange(
  kv: Kv,
  internalId: string,
  change: IssueChange,
): Promise<boolean> {
  return await retryOnConflict(
    () => tryIssueChange(kv, internalId, change),
    "the issue changed too often to update its entry",
  );
}

/** One attempt of {@link applyIssueChange}; "conflict" when the entry changed meanwhile. */
async function tryIssueChange(
  kv: Kv,
  internalId: string,
  change: IssueChange,
): Promise<boolean | "conflict"> {
  const repository = (change.kind === "open" ? change.issue.repository : change.repository)
    .toLowerCase();
  const number = change.kind === "open" ? change.issue.number : change.number;
  const key = openIssueKey(internalId, repository, number);
  const repoKey = issueRepositoryKey(internalId, repository);
  const [existing, followed] = await kv.getMany<[OpenIssue | ClosedIssue, true]>([key, repoKey]);
  const updatedAt = change.kind === "open" ? change.issue.updatedAt : change.updatedAt;
  if (existing.value && existing.value.updatedAt > updatedAt) return true; // a later one won
  if (change.kind === "closed") {
    const closed: ClosedIssue = { closed: true, updatedAt };
    const op = kv.atomic().check(existing).set(key, closed, { expireIn: CLOSED_KEEP_MS });
    return (await op.commit()).ok || "conflict";
  }
  if (existing.value === null) {
    const repositories = issueRepositoriesPrefix(internalId);
    if (
      followed.value === null &&
      await isFull(kv, repositories, MAX_ISSUE_REPOSITORIES_PER_GROUP)
    ) return false;
    const issues = openIssuesOfRepositoryPrefix(internalId, repository);
    if (await isFull(kv, issues, MAX_ISSUES_PER_REPOSITORY)) return false;
  }
  const op = kv.atomic().check(existing).set(key, change.issue);
  if (followed.value === null) op.set(repoKey, true);
  return (await op.commit()).ok || "conflict";
}

/** The open issues of the group `internalId` (every repository), in key order. */
export async function listOpenIssues(kv: Kv, internalId: string): Promise<OpenIssue[]> {
  const entries = kv.list<OpenIssue | ClosedIssue>({ prefix: openIssuesPrefix(internalId) }, {
    limit: MAX_GROUP_ISSUES,
  });
  return (await Array.fromAsync(entries)).flatMap((entry) =>
    isClosedIssue(entry.value) ? [] : [entry.value]
  );
}

/**
 * Whether a stored `open_issues` value is a closed issue's marker (which expires) rather than
 * an open issue (which does not).
 */
export function isClosedIssue(value: unknown): value is ClosedIssue {
  return typeof value === "object" && value !== null && Object.hasOwn(value, "closed") &&
    (value as { closed: unknown }).closed === true;
}
