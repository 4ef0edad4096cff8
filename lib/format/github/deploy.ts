/** Formatters for deployments and their status changes. */

import { authorOf, compose, type EventContext, repositoryLink } from "../context.ts";
import { COLORS, outcomeColor } from "../colors.ts";
import { code, field, link, type Message, type MessageField } from "../message.ts";
import { at, string } from "../read.ts";
import { humanize, safeUrl } from "../text.ts";
import { commitField, textField, textLine } from "./shared.ts";
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
