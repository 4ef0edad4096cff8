/** Formatters for CI: workflow runs and jobs, check runs and suites, commit statuses. */

import { authorOf, compose, type EventContext, repositoryLink } from "../context.ts";
import { COLORS, outcomeColor } from "../colors.ts";
import { field, type Message, text } from "../message.ts";
import { at, list, names, string } from "../read.ts";
import { duration, firstLine, humanize, safeUrl, truncate } from "../text.ts";
import { bodyQuote, branchField, commitField, namesField, textField, textLine } from "./shared.ts";
import { ownValue } from "../../own_value.ts";

const CONCLUSIONS: Record<string, string> = {
  success: "succeeded",
  failure: "failed",
  cancelled: "cancelled",
  timed_out: "timed out",
  action_required: "needs action",
  startup_failure: "failed to start",
  neutral: "finished",
};

const STATUSES: Record<string, string> = {
  in_progress: "running",
  requested: "requested",
  queued: "queued",
  waiting: "waiting",
  pending: "pending",
};

/** The outcome of a run, job or check: its conclusion once completed, else its status. */
interface Outcome {
  word: string;
  color: number;
}

function outcomeOf(action: string | undefined, item: unknown): Outcome {
  const conclusion = string(at(item, "conclusion"));
  const status = string(at(item, "status")) ?? action ?? "pending";
  if (conclusion && (status === "completed" || action === "completed")) {
    return {
      word: ownValue(CONCLUSIONS, conclusion) ?? humanize(conclusion),
      color: outcomeColor(conclusion),
    };
  }
  return { word: ownValue(STATUSES, status) ?? humanize(status), color: COLORS.yellow };
}

/** A workflow run: its outcome, branch, commit, trigger and, once finished, its duration. */
export function formatWorkflowRun(context: EventContext): Message {
  const run = context.payload.workflow_run;
  const name = string(at(run, "name")) ?? string(at(context.payload, "workflow", "name")) ??
    "Workflow";
  const number = string(at(run, "run_number"));
  const outcome = outcomeOf(context.action, run);
  const attempt = Number(at(run, "run_attempt"));
  return compose(context, {
    subject: `Workflow ${name}${number ? ` #${number}` : ""} ${outcome.word}`,
    url: safeUrl(at(run, "html_url")),
    color: outcome.color,
    description: textLine(at(run, "display_title")),
    fields: [
      branchField(context, at(run, "head_branch")),
      commitField(context, at(run, "head_sha")),
      textField("Trigger", at(run, "event")),
      at(run, "status") === "completed"
        ? textField("Duration", duration(at(run, "run_started_at"), at(run, "updated_at")))
        : undefined,
      attempt > 1 ? field("Attempt", text(String(attempt))) : undefined,
    ],
    author: authorOf(context, at(run, "triggering_actor")) ?? authorOf(context, at(run, "actor")),
  });
}

/** A workflow job: its outcome, workflow, branch, commit, runner, duration and failed step. */
export function formatWorkflowJob(context: EventContext): Message {
  const job = context.payload.workflow_job;
  const outcome = outcomeOf(context.action, job);
  const failedStep = list(at(job, "steps")).find((step) => at(step, "conclusion") === "failure");
  return compose(context, {
    subject: `Job ${string(at(job, "name")) ?? "job"} ${outcome.word}`,
    url: safeUrl(at(job, "html_url")),
    color: outcome.color,
    fields: [
      textField("Workflow", at(job, "workflow_name")),
      branchField(context, at(job, "head_branch")),
      commitField(context, at(job, "head_sha")),
      textField("Runner", at(job, "runner_name")),
      textField("Duration", duration(at(job, "started_at"), at(job, "completed_at"))),
      textField("Failed step", at(failedStep, "name"), false),
    ],
  });
}

/** A check run: its outcome (or the action a user requested), app, branch, commit and summary. */
export function formatCheckRun(context: EventContext): Message {
  const check = context.payload.check_run;
  const name = string(at(check, "name")) ?? "check";
  const requested = context.action === "requested_action";
  const outcome = outcomeOf(context.action, check);
  const summary = string(at(check, "output", "summary"));
  return compose(context, {
    subject: requested ? `Check ${name}: action requested` : `Check ${name} ${outcome.word}`,
    url: safeUrl(at(check, "html_url")) ?? safeUrl(at(check, "details_url")),
    color: requested ? COLORS.blue : outcome.color,
    description: summary ? bodyQuote(summary) : [],
    fields: [
      requested
        ? textField("Action", at(context.payload, "requested_action", "identifier"))
        : undefined,
      textField("App", at(check, "app", "name")),
      branchField(context, at(check, "check_suite", "head_branch")),
      commitField(context, at(check, "head_sha")),
      textField("Result", at(check, "output", "title"), false),
    ],
  });
}

/** A check suite: its outcome, app, branch and head commit. */
export function formatCheckSuite(context: EventContext): Message {
  const suite = context.payload.check_suite;
  const outcome = outcomeOf(context.action, suite);
  const sha = string(at(suite, "head_sha"));
  const message = string(at(suite, "head_commit", "message"));
  const headline = message ? truncate(firstLine(message), 200) : undefined;
  return compose(context, {
    subject: `Check suite ${outcome.word}`,
    url: sha ? repositoryLink(context, `commit/${sha}/checks`) : undefined,
    color: outcome.color,
    description: textLine(headline),
    fields: [
      textField("App", at(suite, "app", "name")),
      branchField(context, at(suite, "head_branch")),
      commitField(context, sha),
    ],
  });
}

const STATES: Record<string, string> = {
  success: "succeeded",
  failure: "failed",
  error: "errored",
  pending: "pending",
};

/** A commit status: context and state, linked to its target, with the commit and its branches. */
export function formatStatus(context: EventContext): Message {
  const payload = context.payload;
  const state = string(payload.state) ?? "pending";
  const sha = string(payload.sha) ?? string(at(payload, "commit", "sha"));
  return compose(context, {
    subject: `Status ${string(payload.context) ?? "default"} ${
      ownValue(STATES, state) ?? humanize(state)
    }`,
    url: safeUrl(payload.target_url) ?? safeUrl(at(payload, "commit", "html_url")),
    color: outcomeColor(state),
    description: textLine(payload.description),
    fields: [
      commitField(context, sha),
      namesField("Branches", names(payload.branches).slice(0, 5)),
    ],
  });
}
