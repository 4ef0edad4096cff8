/** Formatters for deployments, their status changes and their reviews. */

import { authorOf, compose, type EventContext, repositoryLink } from "../context.ts";
import { COLORS, outcomeColor } from "../colors.ts";
import { code, field, link, type Message, type MessageField } from "../message.ts";
import { at, list, string } from "../read.ts";
import { humanize, safeUrl } from "../text.ts";
import { branchField, commitField, namesField, textField, textLine } from "./shared.ts";
import { ownValue } from "../../own_value.ts";

const STATES: Record<string, string> = {
  success: "succeeded",
  failure: "failed",
  error: "errored",
  in_progress: "in progress",
};

function environmentOf(deployment: unknown, status?: unknown): string {
  return string(at(status, "environment")) ?? string(at(deployment, "environment")) ??
    "an environment";
}

function refField(deployment: unknown): MessageField | undefined {
  const ref = string(at(deployment, "ref"));
  return ref && ref !== string(at(deployment, "sha")) ? field("Ref", code(ref)) : undefined;
}

/** A new deployment: environment, ref, commit and description. */
export function formatDeployment(context: EventContext): Message {
  const deployment = context.payload.deployment;
  const task = string(at(deployment, "task"));
  return compose(context, {
    subject: `Deployment to ${environmentOf(deployment)} ${humanize(context.action ?? "created")}`,
    url: safeUrl(at(context.payload, "workflow_run", "html_url")) ??
      repositoryLink(context, "deployments"),
    color: COLORS.yellow,
    description: textLine(at(deployment, "description")),
    fields: [
      refField(deployment),
      commitField(context, at(deployment, "sha")),
      task && task !== "deploy" ? textField("Task", task) : undefined,
    ],
    author: authorOf(context, at(deployment, "creator")),
  });
}

/** A deployment's new state, linked to the deployed environment, with a link to its log. */
export function formatDeploymentStatus(context: EventContext): Message {
  const { deployment, deployment_status: status } = context.payload;
  const state = string(at(status, "state")) ?? "pending";
  const environmentUrl = safeUrl(at(status, "environment_url"));
  const logUrl = safeUrl(at(status, "log_url")) ?? safeUrl(at(status, "target_url"));
  return compose(context, {
    subject: `Deployment to ${environmentOf(deployment, status)} ${
      ownValue(STATES, state) ?? humanize(state)
    }`,
    url: environmentUrl ?? logUrl ?? repositoryLink(context, "deployments"),
    color: outcomeColor(state),
    description: textLine(at(status, "description")),
    fields: [
      refField(deployment),
      commitField(context, at(deployment, "sha")),
      logUrl ? field("Log", link("View log", logUrl)) : undefined,
    ],
    author: authorOf(context, at(status, "creator")),
  });
}

const REVIEW_WORDS: Record<string, string> = {
  requested: "waits for review",
  approved: "approved",
  rejected: "rejected",
};

/** A deployment of a workflow run waiting for review, or its review: environment, run, people. */
export function formatDeploymentReview(context: EventContext): Message {
  const { payload } = context;
  const run = payload.workflow_run;
  const environment = string(at(payload, "environment")) ??
    string(at(payload, "workflow_job_run", "environment")) ?? "an environment";
  const action = context.action ?? "requested";
  const reviewers = list(at(payload, "reviewers")).map((item) =>
    string(at(item, "reviewer", "login")) ?? string(at(item, "reviewer", "slug"))
  ).filter((name) => name !== undefined);
  return compose(context, {
    subject: `Deployment to ${environment} ${ownValue(REVIEW_WORDS, action) ?? humanize(action)}`,
    url: safeUrl(at(run, "html_url")) ?? repositoryLink(context, "actions"),
    color: action === "rejected"
      ? COLORS.red
      : action === "approved"
      ? COLORS.green
      : COLORS.yellow,
    description: textLine(at(payload, "comment")),
    fields: [
      textField("Workflow", at(run, "name")),
      branchField(context, at(run, "head_branch")),
      commitField(context, at(run, "head_sha")),
      namesField("Reviewers", reviewers),
    ],
    author: authorOf(context, at(payload, "requestor")) ?? authorOf(context, payload.sender),
  });
}
