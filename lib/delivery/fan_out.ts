/**
 * The `deliver` job: one accepted event becomes one unit per (route, target).
 * Unit ids are deterministic and created with a "must not exist" check, so a
 * job that runs again (a retry, a crash) never makes a unit twice. Once all
 * units exist (or the job failed), the event's pending fan-out mark is
 * cleared, which lets lanes send units of newer events.
 */
import { formatEvent } from "../format/mod.ts";
import { selectRoutes } from "../filter/select.ts";
import { type DeliverJob, loadEvent } from "../store/events.ts";
import { listGroupEntries } from "../store/groups.ts";
import { clearFanOutPending } from "../store/pending_fan_outs.ts";
import type { SendLog } from "../store/send_logs.ts";
import { createUnit, type NewUnit } from "../store/units.ts";
import { laneKeyFor } from "../target_ref.ts";
import type { ForgeEvent, Route, Target } from "../types.ts";
import type { DeliveryContext } from "./context.ts";
import { isOwnActionSkipped } from "./own_actions.ts";
import { messageForRoute } from "./render.ts";
import { inPlacePlanOf, renderUnitBody } from "./edit_in_place.ts";
import { resolveMentions } from "./mentions.ts";
import { unitIdFor } from "./targets.ts";

const REPOSITORY_CHARS = 200;

/** The repository an event is about (`owner/name`), when its payload names one. */
function repositoryOf(event: ForgeEvent): string | undefined {
  const repository = event.payload.repository;
  if (typeof repository !== "object" || repository === null) return undefined;
  const name = (repository as Record<string, unknown>).full_name;
  return typeof name === "string" && name !== "" ? name.slice(0, REPOSITORY_CHARS) : undefined;
}

async function unitFor(
  event: ForgeEvent,
  route: Route,
  groupInternalId: string,
  target: Target,
  body: unknown,
  now: number,
  templateError?: string,
): Promise<NewUnit> {
  const repository = repositoryOf(event);
  const log: SendLog = {
    id: await unitIdFor(event.id, route, target),
    deliveryId: event.deliveryId ?? event.id,
    eventId: event.id,
    event: event.kind,
    ...(event.action === undefined ? {} : { action: event.action }),
    ...(repository === undefined ? {} : { repository }),
    provider: event.provider,
    groupId: route.groupId,
    groupInternalId,
    routeId: route.id,
    platform: target.platform,
    target,
    ...(templateError === undefined ? {} : { templateError }),
    status: "retrying",
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  };
  return { log, body, lane: laneKeyFor(target) };
}

/**
 * Routes the job's event and creates its units; returns how many were new.
 * Either way (the queue retries a job that throws) the event's pending fan-out
 * mark is cleared, so a failing event never holds other events' units back.
 */
export async function fanOut(ctx: DeliveryContext, job: DeliverJob): Promise<number> {
  try {
    return await createUnits(ctx, job);
  } finally {
    await clearFanOutPending(ctx.kv, job.eventId);
  }
}

async function createUnits(ctx: DeliveryContext, job: DeliverJob): Promise<number> {
  const event = await loadEvent(ctx.kv, job.eventId);
  if (!event) {
    ctx.log.warn("deliver job for an unknown event", { eventId: job.eventId });
    return 0;
  }
  const message = formatEvent(event);
  if (!message) return 0;
  const inPlace = await inPlacePlanOf(event); // edit in place
  const mentioned = await resolveMentions(ctx.kv, event, message); // linked users it names
  const [{ routes }, entries] = await Promise.all([
    ctx.routes.current(),
    listGroupEntries(ctx.kv),
  ]);
  const groups = entries.map((entry) => entry.group);
  const internalIds = new Map(entries.map((entry) => [entry.group.id, entry.internalId]));
  const now = ctx.now();
  const units: NewUnit[] = [];
  const selection = await selectRoutes(event, event.scope, routes, groups, {
    globalIngress: ctx.globalIngress,
  });
  for (const { route, reason } of selection.notEvaluated) {
    ctx.log.warn("route not evaluated", {
      eventId: event.id,
      groupId: route.groupId,
      routeId: route.id,
      reason,
    });
  }
  for (const route of selection.routes) {
    const internalId = internalIds.get(route.groupId)!;
    const routed = messageForRoute(event, message, route.template);
    const bodies = new Map<string, unknown>();
    for (const target of route.targets) {
      if (await isOwnActionSkipped(ctx.kv, event, target)) continue;
      if (!bodies.has(target.platform)) {
        bodies.set(
          target.platform,
          renderUnitBody(inPlace, routed.message, route, target, event, mentioned),
        );
      }
      const body = bodies.get(target.platform);
      units.push(await unitFor(event, route, internalId, target, body, now, routed.templateError));
    }
  }
  const created = await Promise.all(
    units.map((unit) => createUnit(ctx.kv, unit, now, ctx.retentionMs)),
  );
  const fresh = created.filter(Boolean).length;
  ctx.log.info("event routed", { eventId: event.id, units: units.length, created: fresh });
  return fresh;
}
