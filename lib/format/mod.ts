/**
 * Event formatting: `formatEvent` turns an accepted event into a neutral
 * message; `renderDiscord` and `renderTelegram` turn that into platform bodies.
 *
 * Every event produces a message except `ping` (a hook's hello, never routed).
 * Actions are not silenced here (a `pull_request.synchronize` with no new
 * commits still says the head moved); routes choose what they want with
 * event filters such as `pull_request.opened`.
 */

import type { ForgeEvent } from "../types.ts";
import { createContext, type EventContext } from "./context.ts";
import { formatCustom } from "./custom.ts";
import { formatGeneric } from "./generic.ts";
import {
  formatCheckRun,
  formatCheckSuite,
  formatStatus,
  formatWorkflowJob,
  formatWorkflowRun,
} from "./github/ci.ts";
import {
  formatDeployment,
  formatDeploymentReview,
  formatDeploymentStatus,
} from "./github/deploy.ts";
import { formatDiscussion, formatDiscussionComment } from "./github/discussion.ts";
import { formatIssue, formatIssueComment } from "./github/issues.ts";
import {
  formatPullRequest,
  formatPullRequestReview,
  formatPullRequestReviewComment,
} from "./github/pull_request.ts";
import { formatCommitComment, formatPush } from "./github/push.ts";
import { formatRelease } from "./github/release.ts";
import {
  formatCreate,
  formatDelete,
  formatFork,
  formatLabel,
  formatMember,
  formatMilestone,
  formatRepository,
  formatStar,
} from "./github/repo.ts";
import {
  formatCodeScanningAlert,
  formatDependabotAlert,
  formatSecretScanningAlert,
} from "./github/security.ts";
import type { Message } from "./message.ts";

export type { Message } from "./message.ts";
export { renderDiscord } from "./discord.ts";
export { renderTelegram, telegramSendMessage } from "./telegram.ts";

/** A formatter for one forge event kind (GitHub names; Gitea events arrive normalized). */
type Formatter = (context: EventContext) => Message;

const FORMATTERS: Readonly<Record<string, Formatter>> = {
  push: formatPush,
  commit_comment: formatCommitComment,
  pull_request: formatPullRequest,
  pull_request_review: formatPullRequestReview,
  pull_request_review_comment: formatPullRequestReviewComment,
  issues: formatIssue,
  issue_comment: formatIssueComment,
  create: formatCreate,
  delete: formatDelete,
  release: formatRelease,
  fork: formatFork,
  star: formatStar,
  watch: formatStar,
  member: formatMember,
  label: formatLabel,
  milestone: formatMilestone,
  repository: formatRepository,
  workflow_run: formatWorkflowRun,
  workflow_job: formatWorkflowJob,
  check_run: formatCheckRun,
  check_suite: formatCheckSuite,
  status: formatStatus,
  deployment: formatDeployment,
  deployment_status: formatDeploymentStatus,
  deployment_review: formatDeploymentReview,
  discussion: formatDiscussion,
  discussion_comment: formatDiscussionComment,
  code_scanning_alert: formatCodeScanningAlert,
  dependabot_alert: formatDependabotAlert,
  secret_scanning_alert: formatSecretScanningAlert,
};

/** The event kinds that have a formatter of their own (others get the generic message). */
export const FORMATTED_KINDS: readonly string[] = Object.keys(FORMATTERS);

/** Event kinds that deliberately produce no message. */
const SILENT_KINDS: ReadonlySet<string> = new Set(["ping"]);

/**
 * The message for an event, or null when there is deliberately nothing to say
 * (see `SILENT_KINDS`). Never throws: a payload a dedicated formatter cannot
 * read falls back to the generic message.
 */
export function formatEvent(event: ForgeEvent): Message | null {
  if (event.provider === "custom") return formatCustom(event);
  if (SILENT_KINDS.has(event.kind)) return null;
  const context = createContext(event);
  const formatter = Object.hasOwn(FORMATTERS, event.kind) ? FORMATTERS[event.kind] : formatGeneric;
  try {
    return formatter(context);
  } catch {
    return formatGeneric(context);
  }
}
