/**
 * GitHub Actions calls a chat makes as a linked user: the deployments of a run waiting for
 * review (listed, then approved or rejected), re-running a run (all jobs or the failed ones)
 * and cancelling it. GitHub decides who may do each; its refusals come back as outcomes.
 */
import type { ActionOutcome } from "./actions.ts";
import { type GitHubCaller, repoPath } from "./client.ts";

/** A workflow run of a repository. */
export interface RunTarget {
  owner: string;
  repo: string;
  runId: number;
}

/** An environment a run waits on, as `GET …/pending_deployments` lists it. */
export interface PendingEnvironment {
  id: number;
  name: string;
  /** Whether the caller may approve it (GitHub's `current_user_can_approve`). */
  canApprove: boolean;
}

/** Environments read from one answer, at most (GitHub allows a handful per run). */
const MAX_ENVIRONMENTS = 50;
/** Longest environment name kept (GitHub's limit is 255). */
const MAX_ENVIRONMENT_NAME = 255;

function runPath(target: RunTarget, ...rest: string[]): string {
  return repoPath(target.owner, target.repo, "actions", "runs", target.runId, ...rest);
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : null;
}

/** The well-formed environments of a pending-deployments answer; anything else is skipped. */
function environmentsOf(body: unknown): PendingEnvironment[] {
  const items = Array.isArray(body) ? body.slice(0, MAX_ENVIRONMENTS) : [];
  const environments: PendingEnvironment[] = [];
  for (const item of items) {
    const environment = record(record(item)?.environment);
    const { id, name } = environment ?? {};
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) continue;
    if (typeof name !== "string" || name.length > MAX_ENVIRONMENT_NAME) continue;
    environments.push({ id, name, canApprove: record(item)?.current_user_can_approve === true });
  }
  return environments;
}

/** The environments the run waits on for a review. */
export async function listPendingDeployments(
  github: GitHubCaller,
  target: RunTarget,
): Promise<ActionOutcome<PendingEnvironment[]>> {
  const outcome = await github<unknown>({
    method: "GET",
    path: runPath(target, "pending_deployments"),
  });
  return outcome.kind === "ok" ? { kind: "ok", result: environmentsOf(outcome.body) } : outcome;
}

/** Approves or rejects the run's deployments to `environmentIds`, with a comment. */
export async function reviewPendingDeployments(
  github: GitHubCaller,
  target: RunTarget,
  review: { environmentIds: number[]; state: "approved" | "rejected"; comment: string },
): Promise<ActionOutcome<Record<never, never>>> {
  const outcome = await github({
    method: "POST",
    path: runPath(target, "pending_deployments"),
    body: {
      environment_ids: review.environmentIds,
      state: review.state,
      comment: review.comment,
    },
  });
  return outcome.kind === "ok" ? { kind: "ok", result: {} } : outcome;
}

/** Re-runs the run: every job, or only the failed ones (and what depends on them). */
export async function rerunWorkflowRun(
  github: GitHubCaller,
  target: RunTarget,
  failedOnly: boolean,
): Promise<ActionOutcome<Record<never, never>>> {
  const outcome = await github({
    method: "POST",
    path: runPath(target, failedOnly ? "rerun-failed-jobs" : "rerun"),
    body: {},
  });
  return outcome.kind === "ok" ? { kind: "ok", result: {} } : outcome;
}

/** Cancels a queued or running run. */
export async function cancelWorkflowRun(
  github: GitHubCaller,
  target: RunTarget,
): Promise<ActionOutcome<Record<never, never>>> {
  const outcome = await github({ method: "POST", path: runPath(target, "cancel") });
  return outcome.kind === "ok" ? { kind: "ok", result: {} } : outcome;
}
