/**
 * What a workflow run's notification is about, for chat-ops: a `workflow_run` event's run, or
 * a `deployment_review` event asking for a review (`requested`): the run and the environment
 * it waits on. A notification is actionable only when the run's page (`html_url`) is the run
 * its repository and id name, so a press acts on what the card links to; its buttons carry a
 * tag of that run.
 */
import type { RunActions, RunState } from "../format/run_buttons.ts";
import type { RunSubject } from "../store/delivery/message_refs.ts";
import type { ForgeEvent } from "../types.ts";
import { OWNER_PATTERN, REPO_PATTERN } from "../format/github_names.ts";
import { subjectTag } from "../format/subject.ts";

/** Event kinds whose notification may act on a workflow run. */
export const RUN_EVENT_KINDS: ReadonlySet<string> = new Set(["workflow_run", "deployment_review"]);

/** Longest environment name kept (GitHub's limit). */
const MAX_ENVIRONMENT = 255;

/** Conclusions of a finished run that re-running may fix. */
const FAILED: ReadonlySet<string> = new Set([
  "failure",
  "timed_out",
  "cancelled",
  "startup_failure",
]);

/** Statuses of a run that has not finished. */
const RUNNING: ReadonlySet<string> = new Set([
  "requested",
  "queued",
  "pending",
  "waiting",
  "in_progress",
]);

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : null;
}

function repositoryOf(payload: Record<string, unknown>): string | null {
  const name = record(payload.repository)?.full_name;
  if (typeof name !== "string") return null;
  const [owner, repo, ...rest] = name.split("/");
  return rest.length === 0 && OWNER_PATTERN.test(owner) && REPO_PATTERN.test(repo ?? "")
    ? name
    : null;
}

/** Whether `url` is the run's page: `https://github.com/<repository>/actions/runs/<id>`. */
function pageNamesRun(url: string, repository: string, runId: number): boolean {
  if (!URL.canParse(url)) return false;
  const page = new URL(url);
  const path = page.pathname.replace(/\/+$/, "").toLowerCase();
  return page.protocol === "https:" && page.hostname === "github.com" &&
    path === `/${repository.toLowerCase()}/actions/runs/${runId}`;
}

/** The run a payload is about, and its page, when it is well-formed. */
function runOf(
  payload: Record<string, unknown>,
): { repository: string; run: Record<string, unknown>; runId: number; url?: string } | null {
  const repository = repositoryOf(payload);
  const run = record(payload.workflow_run);
  const runId = run?.id;
  if (!repository || !run || typeof runId !== "number") return null;
  if (!Number.isSafeInteger(runId) || runId <= 0) return null;
  const url = run.html_url;
  if (url === undefined || url === null) return { repository, run, runId };
  if (typeof url !== "string" || !pageNamesRun(url, repository, runId)) return null;
  return { repository, run, runId, url };
}

/** The environment a deployment review waits on, when its payload names a fitting one. */
function environmentOf(payload: Record<string, unknown>): string | null {
  const name = payload.environment ?? record(payload.workflow_job_run)?.environment;
  return typeof name === "string" && name.length > 0 && name.length <= MAX_ENVIRONMENT
    ? name
    : null;
}

/**
 * The run a GitHub event's notification may act on, with its page, or null: a workflow run,
 * or a deployment asking for review (with its environment).
 */
export function runSubjectOfEvent(
  event: ForgeEvent,
): { subject: Omit<RunSubject, "routeId" | "groupId">; url?: string } | null {
  if (event.provider !== "github" || !RUN_EVENT_KINDS.has(event.kind)) return null;
  const found = runOf(event.payload);
  if (!found) return null;
  const { repository, runId, url } = found;
  const page = url === undefined ? {} : { url };
  if (event.kind === "workflow_run") {
    return { subject: { repository, kind: "run", number: runId }, ...page };
  }
  const environment = environmentOf(event.payload);
  if (event.action !== "requested" || environment === null) return null;
  return { subject: { repository, kind: "deployment", number: runId, environment }, ...page };
}

function stateOf(run: Record<string, unknown>): RunState {
  const status = typeof run.status === "string" ? run.status : "";
  if (status === "completed") {
    return typeof run.conclusion === "string" && FAILED.has(run.conclusion) ? "failed" : "done";
  }
  return RUNNING.has(status) ? "running" : "done";
}

/** The buttons a run's or deployment review's notification carries, or null for none. */
export function runActionsOfEvent(event: ForgeEvent): RunActions | null {
  const found = runSubjectOfEvent(event);
  if (!found) return null;
  const { subject, url } = found;
  const tag = subjectTag(subject.repository, subject.number);
  const page = url === undefined ? {} : { url };
  if (subject.kind === "deployment") return { kind: "deployment", tag, ...page };
  return { kind: "run", state: stateOf(record(event.payload.workflow_run)!), tag, ...page };
}
