/**
 * Chat actions on a workflow run, as the chat user's linked GitHub account: approve or reject
 * its deployment waiting for review (with an optional comment), re-run it (every job or only
 * the failed ones), cancel it. Each answers a line of plain words for the chat; GitHub decides
 * who may do what, and its refusal is said as it gave it.
 */
import {
  cancelWorkflowRun,
  listPendingDeployments,
  type PendingEnvironment,
  rerunWorkflowRun,
  reviewPendingDeployments,
  type RunTarget,
} from "../github/workflow_runs.ts";
import type { ActionOutcome } from "../github/actions.ts";
import { OWNER_PATTERN, REPO_PATTERN } from "../format/github_names.ts";
import type { GitHubCaller } from "../github/client.ts";
import type { RunSubject } from "../store/delivery/message_refs.ts";
import {
  type ActDeps,
  type ActOptions,
  type ChatReply,
  MAX_COMMENT_LENGTH,
  refusalSentence,
  runAsLinkedUser,
} from "./act.ts";

/** What a chat asks of a run. */
export type RunAction =
  | { kind: "rerun"; failedOnly: boolean }
  | { kind: "cancel" }
  | { kind: "review"; state: "approved" | "rejected"; comment: string };

/** A run a notification is about, and the environment its deployment waits on. */
export interface RunRef extends RunTarget {
  environment?: string;
}

/** The run a notification's subject names, or null when its repository is malformed. */
export function runRefOf(subject: RunSubject): RunRef | null {
  const [owner, repo, ...rest] = subject.repository.split("/");
  if (rest.length > 0 || !OWNER_PATTERN.test(owner) || !REPO_PATTERN.test(repo ?? "")) {
    return null;
  }
  if (!Number.isSafeInteger(subject.number) || subject.number <= 0) return null;
  return {
    owner,
    repo,
    runId: subject.number,
    ...(subject.environment === undefined ? {} : { environment: subject.environment }),
  };
}

/** The run as the chat names it: `owner/repo` run 123. */
export function runText(run: RunRef): string {
  return `${run.owner}/${run.repo} run ${run.runId}`;
}

function verbOf(action: RunAction): string {
  switch (action.kind) {
    case "rerun":
      return action.failedOnly ? "re-run the failed jobs of" : "re-run";
    case "cancel":
      return "cancel";
    case "review":
      return action.state === "approved" ? "approve the deployment of" : "reject the deployment of";
  }
}

/** The run's deployments to review: those waiting for the run's environment, by name. */
function waitingFor(environments: PendingEnvironment[], name: string | undefined): number[] {
  const wanted = name?.toLowerCase();
  return environments
    .filter((environment) => wanted === undefined || environment.name.toLowerCase() === wanted)
    .map((environment) => environment.id);
}

/** What a call answers: whether there was anything to do (a review may find nothing waiting). */
interface Done {
  acted: boolean;
}

async function review(
  github: GitHubCaller,
  run: RunRef,
  action: Extract<RunAction, { kind: "review" }>,
): Promise<ActionOutcome<Done>> {
  const pending = await listPendingDeployments(github, run);
  if (pending.kind !== "ok") return pending;
  const environmentIds = waitingFor(pending.result, run.environment);
  if (environmentIds.length === 0) return { kind: "ok", result: { acted: false } };
  const fallback = action.state === "approved"
    ? "Approved from the chat."
    : "Rejected from the chat.";
  return acted(
    await reviewPendingDeployments(github, run, {
      environmentIds,
      state: action.state,
      comment: action.comment.trim() || fallback,
    }),
  );
}

function acted(outcome: ActionOutcome<Record<never, never>>): ActionOutcome<Done> {
  return outcome.kind === "ok" ? { kind: "ok", result: { acted: true } } : outcome;
}

function callFor(run: RunRef, action: RunAction) {
  return async (github: GitHubCaller): Promise<ActionOutcome<Done>> => {
    switch (action.kind) {
      case "rerun":
        return acted(await rerunWorkflowRun(github, run, action.failedOnly));
      case "cancel":
        return acted(await cancelWorkflowRun(github, run));
      case "review":
        return await review(github, run, action);
    }
  };
}

function successText(run: RunRef, action: RunAction, login: string): string {
  const where = run.environment ? ` to ${run.environment}` : "";
  switch (action.kind) {
    case "rerun":
      return action.failedOnly
        ? `Re-running the failed jobs of ${runText(run)}.`
        : `Re-running ${runText(run)}.`;
    case "cancel":
      return `Cancelling ${runText(run)}.`;
    case "review": {
      const word = action.state === "approved" ? "approved" : "rejected";
      const comment = action.comment.trim();
      return `Deployment${where} ${word} by ${login}${comment ? `: ${comment}` : "."}`;
    }
  }
}

/**
 * Runs `action` on `run` as the GitHub user `userId` (null: the chat user is not linked);
 * `login` names them in the answer. A review acts on the deployments waiting for the run's
 * environment (all that wait when the notification named none).
 */
export async function actOnRunAsLinkedUser(
  deps: ActDeps,
  user: { userId: string; login: string } | null,
  run: RunRef,
  action: RunAction,
  options: ActOptions = {},
): Promise<ChatReply> {
  if (action.kind === "review" && action.comment.length > MAX_COMMENT_LENGTH) {
    return { ok: false, text: `The comment is longer than ${MAX_COMMENT_LENGTH} characters.` };
  }
  const linkCommand = options.linkCommand ?? "/gh link";
  const verb = verbOf(action);
  const where = run.environment ? ` for ${run.environment}` : "";
  return await runAsLinkedUser(deps, user?.userId ?? null, {
    call: callFor(run, action),
    success: () => successText(run, action, user!.login),
    nothingDone: (done) =>
      done.acted ? null : `Nothing of ${runText(run)} waits for a review${where} any more.`,
    refusal: (status, message) => refusalSentence(verb, runText(run), status, message, linkCommand),
  }, options);
}
