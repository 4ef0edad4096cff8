/**
 * The sample events the route editor explains a filter against: a small set of real GitHub
 * webhook payloads served from `static/samples/github/` (MIT licensed, see the LICENSE file
 * there), the sample a saved route's editor reopens with, and the inference of an event's kind
 * and action from a pasted payload. Browser-safe.
 *
 * Three samples are real payloads with a few fields changed to show a common case: the failing
 * workflow run is the successful one with `conclusion: "failure"` on branch `main`, and the push
 * to a tag is GitHub's tag-deletion push turned into a tag creation (`created`, `after`, and
 * the head commit of the branch push).
 */

/** A bundled sample payload. */
export interface Sample {
  /** Also the file name (without `.json`) under SAMPLES_PATH. */
  id: string;
  kind: string;
  action?: string;
  label: string;
}

/** Where the samples are served. */
const SAMPLES_PATH = "/samples/github/";

/** The bundled samples, the default first. */
export const SAMPLES: readonly Sample[] = [
  {
    id: "pull_request.opened",
    kind: "pull_request",
    action: "opened",
    label: "Pull request opened (label bug)",
  },
  {
    id: "pull_request.closed",
    kind: "pull_request",
    action: "closed",
    label: "Pull request closed",
  },
  {
    id: "pull_request_review.submitted",
    kind: "pull_request_review",
    action: "submitted",
    label: "Pull request review submitted",
  },
  { id: "issues.opened", kind: "issues", action: "opened", label: "Issue opened (label bug)" },
  {
    id: "issue_comment.created",
    kind: "issue_comment",
    action: "created",
    label: "Issue comment created",
  },
  {
    id: "pull_request.review_requested",
    kind: "pull_request",
    action: "review_requested",
    label: "Review requested from octocat",
  },
  { id: "push", kind: "push", label: "Push to master (1 commit)" },
  { id: "push.tag", kind: "push", label: "Push of tag simple-tag" },
  {
    id: "workflow_run.completed",
    kind: "workflow_run",
    action: "completed",
    label: "Workflow run completed (success)",
  },
  {
    id: "workflow_run.completed.failure",
    kind: "workflow_run",
    action: "completed",
    label: "Workflow run failed on main",
  },
  {
    id: "release.published",
    kind: "release",
    action: "published",
    label: "Release 0.0.1 published",
  },
];

/** The sample menu's value for a payload the person pasted. */
export const PASTED_SAMPLE = "pasted";

/**
 * The sample a `sample` query parameter names (a bundled sample's id, or the pasted payload
 * kept in the browser's session), or null for anything else.
 */
export function sampleChoiceOf(param: string | null): string | null {
  if (param === PASTED_SAMPLE) return param;
  return SAMPLES.some((sample) => sample.id === param) ? param : null;
}

/** Where the browser keeps a pasted sample while the editor reloads after creating a route. */
export function pastedSampleKey(groupId: string): string {
  return `switchyard.pasted-sample.${groupId}`;
}

/** The URL of a sample's payload. */
export function sampleUrl(sample: Sample): string {
  return `${SAMPLES_PATH}${sample.id}.json`;
}

/**
 * Keys whose presence names a GitHub event kind, most specific first; `a.b` is key `b` of
 * the object under key `a`.
 */
const KIND_BY_KEYS: ReadonlyArray<readonly [keys: readonly string[], kind: string]> = [
  [["pull_request", "review"], "pull_request_review"],
  [["pull_request", "comment"], "pull_request_review_comment"],
  [["pull_request", "thread"], "pull_request_review_thread"],
  [["pull_request"], "pull_request"],
  [["issue", "comment"], "issue_comment"],
  [["issue"], "issues"],
  [["discussion", "comment"], "discussion_comment"],
  [["discussion"], "discussion"],
  [["deployment_status"], "deployment_status"],
  [["deployment"], "deployment"],
  [["reviewers", "workflow_run"], "deployment_review"],
  [["workflow_run"], "workflow_run"],
  [["workflow_job"], "workflow_job"],
  [["check_run"], "check_run"],
  [["check_suite"], "check_suite"],
  [["release"], "release"],
  [["alert", "commit_oid"], "code_scanning_alert"],
  [["alert.secret_type"], "secret_scanning_alert"],
  [["alert.dependency"], "dependabot_alert"],
  [["alert"], "repository_vulnerability_alert"],
  [["commits", "ref", "before", "after"], "push"],
  [["ref_type", "master_branch"], "create"],
  [["ref_type", "ref"], "delete"],
  [["forkee"], "fork"],
  [["starred_at"], "star"],
  [["comment"], "commit_comment"],
  [["sha", "state", "context"], "status"],
  [["label"], "label"],
  [["milestone"], "milestone"],
  [["zen", "hook_id"], "ping"],
  [["hook_id", "hook"], "meta"],
  [["client_payload"], "repository_dispatch"],
  [["inputs", "workflow"], "workflow_dispatch"],
  [["pages"], "gollum"],
  [["build"], "page_build"],
  [["repositories_added"], "installation_repositories"],
  [["blocked_user"], "org_block"],
  [["scope", "member", "team"], "membership"],
  [["member"], "member"],
  [["membership"], "organization"],
];

/** Top-level keys that carry their event's name (checked after KIND_BY_KEYS). */
const NAMED_BY_KEY = [
  "project_card",
  "project_column",
  "projects_v2_item",
  "project",
  "branch_protection_rule",
  "security_advisory",
  "registry_package",
  "package",
  "merge_group",
  "deploy_key",
  "sponsorship",
  "marketplace_purchase",
];

/**
 * The kind and action a GitHub-style payload most likely has: the kind from the keys it
 * carries (`custom` when none fits), the action from its `action` field.
 */
export function inferEvent(payload: unknown): { kind: string; action?: string } {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    return { kind: "custom" };
  }
  const record = payload as Record<string, unknown>;
  const action = typeof record.action === "string" && record.action !== ""
    ? record.action
    : undefined;
  const has = (key: string): boolean => {
    const [head, tail] = key.split(".");
    if (!Object.hasOwn(record, head) || record[head] === undefined) return false;
    if (tail === undefined) return true;
    const inner = record[head];
    return inner !== null && typeof inner === "object" && Object.hasOwn(inner, tail);
  };
  const found = KIND_BY_KEYS.find(([keys]) => keys.every(has));
  if (found) return { kind: found[1], action };
  const named = NAMED_BY_KEY.find(has);
  if (named) return { kind: named, action };
  if (has("team")) return { kind: action === undefined ? "team_add" : "team", action };
  if (has("installation") && has("repositories")) return { kind: "installation", action };
  if (has("repository") && has("sender")) {
    if (action === "started") return { kind: "watch", action };
    return { kind: action === undefined ? "public" : "repository", action };
  }
  return { kind: "custom", action };
}
