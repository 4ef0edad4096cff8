/**
 * The `deliver` job: accepted events become one unit per (route, target).
 * Unit ids are deterministic and created with a "must not exist" check, so a
 * job that runs again (a retry, a crash) never makes a unit twice. Once all of
 * an event's units exist, its pending fan-out mark is cleared, which lets lanes
 * send units of newer events.
 *
 * A job names one event or the events of one group commit
 * (lib/store/delivery/fan_out_jobs.ts). A batch job reads the routes and groups once,
 * loads its events together, creates all their units together and ends with
 * one commit (more only past KV's limits) that writes their events-view
 * records and clears their marks, so a batch costs the store's writer a few
 * transactions instead of several per event. Each event keeps its own
 * guarantees: one that throws keeps its mark and gets a job of its own in that
 * commit (run as a single-event job, below), the others finish; a batch job
 * run again skips the events whose marks are gone (their fan-out is done).
 */
import { formatEvent } from "../format/mod.ts";
import { selectRoutes } from "../routing/select.ts";
import { loadEvent, loadEvents } from "../store/delivery/events.ts";
import { type FanOutJob, finishFanOuts } from "../store/delivery/fan_out_jobs.ts";
import { readGroupSetCached } from "../store/config/group_set.ts";
import { repositoryOf, routedEventRecords } from "../store/delivery/event_routes.ts";
import { clearFanOutPending, pendingAmong } from "../store/delivery/pending_fan_outs.ts";
import type { SendLog } from "../store/delivery/send_logs.ts";
import { createUnitsTogether, type NewUnit } from "../store/delivery/units.ts";
import { laneKeyFor } from "../target_ref.ts";
import type { ForgeEvent, Group, Route, Scope, Target } from "../types.ts";
import type { DeliveryContext } from "./context.ts";
import { isOwnActionSkipped } from "./own_actions.ts";
import { queuePersonal } from "./personal.ts";
import { messageForRoute } from "./render.ts";
import { inPlacePlanOf, renderUnitBody } from "./edit_in_place.ts";
import { mentionsOfGroup, resolveMentions } from "./mentions.ts";
import { indexIssueEvent } from "./issue_index.ts";
import { indexPullEvent } from "./pull_index.ts";
import type { CompiledRouteSet } from "./route_cache.ts";
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

/** What routing needs besides the event, read once per job: routes and groups. */
interface Routing {
  routes: CompiledRouteSet["routes"];
  groups: Group[];
  internalIds: Map<string, string>;
}

async function routingOf(ctx: DeliveryContext): Promise<Routing> {
  const [{ routes }, { entries }] = await Promise.all([
    ctx.routes.current(),
    readGroupSetCached(ctx.kv),
  ]);
  return {
    routes,
    groups: entries.map((entry) => entry.group),
    internalIds: new Map(entries.map((entry) => [entry.group.id, entry.internalId])),
  };
}

/** An event's units and its events-view records (one per group it entered). */
interface Plan {
  units: NewUnit[];
  records: ReturnType<typeof routedEventRecords>;
}

const NOTHING: Plan = { units: [], records: [] };

/**
 * The scope an event is routed in now. A group's webhook event enters the group that has the
 * internal id of the group that accepted it, under the id it has now (after a rename), and no
 * group once that one was deleted, even when a group was created again with its id. An event
 * accepted before scopes named the internal id keeps its group id.
 */
function scopeNow(scope: Scope, internalIds: ReadonlyMap<string, string>): Scope | null {
  if (scope.type === "global" || scope.internalId === undefined) return scope;
  if (internalIds.get(scope.groupId) === scope.internalId) return scope; // not renamed
  for (const [groupId, internalId] of internalIds) {
    if (internalId === scope.internalId) return { ...scope, groupId };
  }
  return null;
}

/**
 * Routes one event: which groups it enters and which routes fire, then its units. Only what is
 * needed is computed: an event that enters no group is not formatted, and one that fires no
 * route resolves no mentions and no edit-in-place plan.
 */
async function planEvent(
  ctx: DeliveryContext,
  event: ForgeEvent,
  routing: Routing,
  now: number,
): Promise<Plan> {
  const scope = scopeNow(event.scope, routing.internalIds);
  if (scope === null) {
    ctx.log.warn("event of a deleted group not routed", { eventId: event.id });
    return NOTHING;
  }
  const selection = await selectRoutes(event, scope, routing.routes, routing.groups, {
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
  if (selection.entered.length === 0) return NOTHING;
  // personal notifications, once per event (lib/delivery/personal.ts)
  const queueNotifications = () =>
    queuePersonal(ctx.kv, event, selection.entered, selection.routes, routing.groups);
  const message = formatEvent(event);
  if (!message) {
    await queueNotifications();
    return NOTHING;
  }
  const records = routedEventRecords(
    event,
    selection.entered,
    selection.routes,
    routing.internalIds,
    message.title,
  );
  const internalIds = records.map((entry) => entry.internalId);
  // independent writes, made together: notifications, review reminders, stale work
  await Promise.all([
    queueNotifications(),
    indexPullEvent(ctx.kv, ctx.log, event, internalIds, now),
    indexIssueEvent(ctx.kv, ctx.log, event, internalIds),
  ]);
  if (selection.routes.length === 0) return { units: [], records };
  const inPlace = await inPlacePlanOf(event); // edit in place
  const routeGroups = new Set(selection.routes.map((route) => route.groupId));
  const mentions = await resolveMentions( // linked members of each group it names
    ctx.kv,
    event,
    message,
    routing.groups.filter((group) => routeGroups.has(group.id)),
  );
  const units: NewUnit[] = [];
  for (const route of selection.routes) {
    const internalId = routing.internalIds.get(route.groupId)!;
    const routed = messageForRoute(event, message, route.template);
    const mentioned = mentionsOfGroup(mentions, route.groupId);
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
  return { units, records };
}

/**
 * Runs a deliver job; returns how many units were new. A single-event job keeps its own
 * rules (see {@link fanOutOne}); a batch job those of {@link fanOutBatch}.
 */
export async function fanOut(ctx: DeliveryContext, job: FanOutJob): Promise<number> {
  return "eventIds" in job
    ? await fanOutBatch(ctx, job.eventIds)
    : await fanOutOne(ctx, job.eventId);
}

/**
 * Routes one event and creates its units. A busy store is retried in process first; if it
 * stays busy, the queue retries the job and the event keeps its pending fan-out mark, so it
 * keeps its place in the order (the sweep re-queues it if the job is lost). Any other failure
 * clears the mark, so a failing event never holds other events' units back.
 */
async function fanOutOne(ctx: DeliveryContext, eventId: string): Promise<number> {
  let created: number;
  let plan: Plan;
  try {
    [created, plan] = await retryTransient(ctx.log, "fan out an event", async () => {
      const event = await loadEvent(ctx.kv, eventId);
      if (!event) {
        ctx.log.warn("deliver job for an unknown event", { eventId });
        return [0, NOTHING] as const;
      }
      const now = ctx.now();
      const plan = await planEvent(ctx, event, await routingOf(ctx), now);
      const fresh = await createUnitsTogether(ctx.kv, plan.units, now, ctx.retentionMs);
      ctx.log.info("event routed", { eventId, units: plan.units.length, created: fresh });
      return [fresh, plan] as const;
    });
  } catch (error) {
    if (!isPassingStoreError(error)) await clearFanOutPending(ctx.kv, eventId);
    throw error;
  }
  await retryTransient(
    ctx.log,
    "finish a fan-out",
    () => finishFanOuts(ctx.kv, [{ eventId, records: plan.records }], [], ctx.retentionMs),
  );
  return created;
}

/**
 * Routes the events of one group commit. Events whose marks are gone were fanned out by an
 * earlier run of the job and are skipped. An event that cannot be loaded, routed or given its
 * units (after the in-process retries of a busy store) keeps its mark and is handed a
 * single-event job of its own in the finishing commit; the others finish. Only a failure of
 * that commit makes the queue run the whole job again.
 */
async function fanOutBatch(ctx: DeliveryContext, eventIds: string[]): Promise<number> {
  const pending = await retryTransient(
    ctx.log,
    "read pending fan-outs",
    () => pendingAmong(ctx.kv, eventIds),
  );
  const todo = eventIds.filter((eventId) => pending.has(eventId));
  if (todo.length === 0) return 0;
  const failed = new Set<string>();
  const fail = (eventId: string, error: unknown) => {
    failed.add(eventId);
    ctx.log.error("fan-out of an event failed; it is queued on its own", { eventId, error });
  };
  const [routing, loaded] = await retryTransient(
    ctx.log,
    "load a batch of events",
    () => Promise.all([routingOf(ctx), loadEvents(ctx.kv, todo)]),
  );
  const now = ctx.now();
  const plans = new Map<string, Plan>();
  for (const eventId of todo) {
    const load = loaded.get(eventId)!;
    try {
      if ("error" in load) throw load.error;
      if (!load.event) ctx.log.warn("deliver job for an unknown event", { eventId });
      const event = load.event;
      plans.set(
        eventId,
        event
          ? await retryTransient(
            ctx.log,
            "route an event",
            () => planEvent(ctx, event, routing, now),
          )
          : NOTHING,
      );
    } catch (error) {
      fail(eventId, error);
    }
  }
  const created = await createAllUnits(ctx, plans, now, fail);
  const finished = [...plans].flatMap(([eventId, plan]) =>
    failed.has(eventId) ? [] : [{ eventId, records: plan.records }]
  );
  await retryTransient(
    ctx.log,
    "finish a batch of fan-outs",
    () => finishFanOuts(ctx.kv, finished, [...failed], ctx.retentionMs),
  );
  for (const { eventId } of finished) {
    ctx.log.info("event routed", { eventId, units: plans.get(eventId)!.units.length });
  }
  ctx.log.info("events routed", { events: todo.length, failed: failed.size, created });
  return created;
}

/**
 * Creates the units of every planned event together (one commit per 40 units); if that
 * throws, event by event, so one event's failure is its own. Returns how many were new.
 */
async function createAllUnits(
  ctx: DeliveryContext,
  plans: Map<string, Plan>,
  now: number,
  fail: (eventId: string, error: unknown) => void,
): Promise<number> {
  const units = [...plans.values()].flatMap((plan) => plan.units);
  if (units.length === 0) return 0;
  try {
    return await retryTransient(
      ctx.log,
      "create the units of a batch",
      () => createUnitsTogether(ctx.kv, units, now, ctx.retentionMs),
    );
  } catch {
    let created = 0;
    for (const [eventId, plan] of plans) {
      if (plan.units.length === 0) continue;
      try {
        created += await retryTransient(
          ctx.log,
          "create an event's units",
          () => createUnitsTogether(ctx.kv, plan.units, now, ctx.retentionMs),
        );
      } catch (error) {
        plans.delete(eventId);
        fail(eventId, error);
      }
    }
    return created;
  }
}
