/**
 * Shared helpers of the CI chat-ops tests (Telegram and Discord; this module holds no tests): a
 * route of group `acme` for one CI event, and a deployment status of the review fixture's run.
 */
import { utf8 } from "../lib/encoding.ts";
import type { Route, Target } from "../lib/types.ts";
import { fixtureJson } from "./_ingest_helpers.ts";

/** A route of group `acme` sending `event` to `target`, mentioning `discordRoleIds` if any. */
export function ciRoute(event: string, target: Target, discordRoleIds: string[] = []): Route {
  return {
    id: event,
    name: event,
    enabled: true,
    groupId: "acme",
    filters: [{ type: "event", value: event }],
    ...(discordRoleIds.length > 0 ? { discordRoleIds } : {}),
    targets: [target],
  };
}

/**
 * A `deployment_status` body in `state` for the run and repository of the deployment review
 * fixture, in environment TST, updated 2026-11-27 09:30 UTC.
 */
export async function deploymentStatusOf(state: string): Promise<Uint8Array<ArrayBuffer>> {
  const status = await fixtureJson("deployment_status/payload.json");
  const review = await fixtureJson("deployment_review/requested.payload.json");
  status.repository = review.repository;
  status.workflow_run = review.workflow_run;
  (status.deployment as Record<string, unknown>).environment = "TST";
  Object.assign(status.deployment_status as Record<string, unknown>, {
    state,
    environment: "TST",
    updated_at: "2026-11-27T09:30:00Z",
  });
  return utf8(JSON.stringify(status));
}
