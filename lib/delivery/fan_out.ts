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
import { recordEventRoutes, repositoryOf, routedEventRecords } from "../store/event_routes.ts";
import { clearFanOutPending } from "../store/pending_fan_outs.ts";
import type { SendLog } from "../store/send_logs.ts";
import { createUnitsTogether, type NewUnit } from "../store/units.ts";
import { laneKeyFor } from "../target_ref.ts";
import type { ForgeEvent, Route, Target } from "../types.ts";
import type { DeliveryContext } from "./context.ts";
import { isOwnActionSkipped } from "./own_actions.ts";
import { messageForRoute } from "./render.ts";
import { inPlacePlanOf, renderUnitBody } from "./edit_in_place.ts";
import { resolveMentions } from "./mentions.ts";
import { unitIdFor } from "./targets.ts";
import { isPassingStoreError, retryTransient } from "../store/transient.ts";

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
 * Routes the job's event and creates its units; returns how many were new. A
 * busy store is retried in process first; if it stays busy, the queue retries
 * the job and the event keeps its pending fan-out mark, so it keeps its place
 * in the order (the sweep re-queues it if the job is lost). Any other failure
 * clears the mark, so a failing event never holds other events' units back.
 */
export async function fanOut(ctx: DeliveryContext, job: DeliverJob): Promise<number> {
  let created: number;
  try {
    created = await retryTransient(ctx.log, "fan out an event", () => createUnits(ctx, job));
  } catch (error) {
    if (!isPassingStoreError(error)) await clearFanOutPending(ctx.kv, job.eventId);
    throw error;
  }
  await retryTransient(
    ctx.log,
    "clear a fan-out mark",
    () => clearFanOutPending(ctx.kv, job.eventId),
  );
  return created;
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
          // a threaded route keeps its own card (lib/delivery/threads.ts)
          renderUnitBody(
            route.threads ? null : inPlace,
            routed.message,
            route,
            target,
            event,
            mentioned,
            ctx.buttons,
          ),
        );
      }
      const body = bodies.get(target.platform);
      units.push(await unitFor(event, route, internalId, target, body, now, routed.templateError));
    }
  }
  const routed = routedEventRecords(
    event,
    selection.entered,
    selection.routes,
    internalIds,
    message.title,
  );
  await recordEventRoutes(ctx.kv, routed, ctx.retentionMs);
  const fresh = await createUnitsTogether(ctx.kv, units, now, ctx.retentionMs);
  ctx.log.info("event routed", { eventId: event.id, units: units.length, created: fresh });
  return fresh;
}
