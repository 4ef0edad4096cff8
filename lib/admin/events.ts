/**
 * A group's events in the admin API: a search of the events its routes were evaluated on (those
 * that fired no route included; `event_search.ts`), and one event explained against each of the
 * group's routes, which
 * answers "why did my event not arrive?". Reading needs membership (or super admin). The
 * records are the group's own (keyed by its internal id), so an event of another group is
 * unknown here (404).
 */
import type { Kv } from "../store/backend/types.ts";
import type { z } from "zod";
import type { Principal } from "../auth/principal.ts";
import { EvaluationBudget, FilterEvaluationError } from "../jsonpath/budget.ts";
import { routeFilterNode } from "../routing/compile.ts";
import { explain, type Explanation } from "../routing/explain.ts";
import { whyMatched, whyNot } from "../routing/explain_words.ts";
import { HttpError } from "../fresh/mod.ts";
import { type EventRoutes, getEventRoutes } from "../store/delivery/event_routes.ts";
import { loadEvent } from "../store/delivery/events.ts";
import { readGroupEntry } from "../store/config/group_set.ts";
import { getGroupRoutes } from "../store/config/routes.ts";
import { historyIdOf, listDeliveryLogs, type SendLog } from "../store/delivery/send_logs.ts";
import type { Route } from "../types.ts";
import { requireRight } from "./guards.ts";
import { publicLog } from "./logs.ts";
import { type EventSearch, searchEvents, type SearchReach } from "./event_search.ts";
import { searchPayloadFilter } from "./event_search_filter.ts";
import type { Page } from "./pages.ts";
import type { eventsQuerySchema } from "./schemas.ts";

/** The events query, as validated by `eventsQuerySchema`. */
type EventsQuery = z.output<typeof eventsQuerySchema>;

/** What one event did in a group, as the API shows it. */
export interface GroupEvent {
  id: string;
  deliveryId?: string;
  provider: EventRoutes["provider"];
  kind: string;
  action?: string;
  repository?: string;
  sender?: string;
  /** The event in words (its message's title). */
  title?: string;
  receivedAt: number;
  routeIds: string[];
  routesFired: number;
}

/** One route of the group, judged against an event. */
export interface RouteVerdict {
  id: string;
  name: string;
  enabled: boolean;
  fallback: boolean;
  /** Whether it fired when the event arrived. */
  fired: boolean;
  /** Whether its filters match the event now. */
  matched: boolean;
  /** The outcome in words. */
  verdict: string;
  explanation?: Explanation;
  error?: string;
  /** The route fired but was deleted since. */
  deleted?: true;
}

/** One event of a group, with its payload, each route's verdict and its send logs. */
export interface GroupEventDetail {
  event: GroupEvent;
  /** Null once the payload is past retention. */
  payload: Record<string, unknown> | null;
  routes: RouteVerdict[];
  logs: SendLog[];
}

function groupEventOf(record: EventRoutes): GroupEvent {
  const { eventId, groupId: _groupId, routeIds, ...rest } = record;
  return { id: eventId, ...rest, routeIds, routesFired: routeIds.length };
}

/** The group's internal id, when it exists (404) and the caller may read it (403). */
async function readableGroup(kv: Kv, principal: Principal, groupId: string) {
  const { entry } = await readGroupEntry(kv, groupId);
  if (entry === null) throw new HttpError(404, `Unknown group ${groupId}`);
  requireRight(principal, groupId, "read");
  return entry;
}

/** The search an events query asks for (its payload filter already validated). */
function searchOf(query: EventsQuery): EventSearch {
  const { path, op, value, limit, ...fields } = query;
  return {
    ...fields,
    ...(path === undefined ? {} : { payload: searchPayloadFilter(path, op, value) }),
    limit: limit ?? 50,
  };
}

/**
 * `GET /admin/api/groups/:id/events`: the group's events that pass the query, newest first, in
 * cursor pages, each page within the search limits (`reach` says how far it looked).
 */
export async function listGroupEvents(
  kv: Kv,
  principal: Principal,
  groupId: string,
  query: EventsQuery,
): Promise<Page<GroupEvent> & { reach: SearchReach }> {
  const { internalId } = await readableGroup(kv, principal, groupId);
  const page = await searchEvents(kv, internalId, searchOf(query));
  return { ...page, items: page.items.map(groupEventOf) };
}

/** One event of a group the caller was already allowed to read, or null when unknown. */
export async function findGroupEvent(
  kv: Kv,
  groupId: string,
  eventId: string,
): Promise<GroupEvent | null> {
  const { entry } = await readGroupEntry(kv, groupId);
  const record = entry === null ? null : await getEventRoutes(kv, entry.internalId, eventId);
  return record === null ? null : groupEventOf(record);
}

/**
 * A route's outcome in one sentence: fired or not, and why in plain words (the filter that
 * decided, what it wants and what the event has).
 */
function verdictOf(
  route: Route,
  fired: boolean,
  explanation: Explanation,
  otherFired: boolean,
): string {
  const matched = explanation.matched;
  if (fired && matched && route.fallback) {
    const takesAll = explanation.kind === "all" && explanation.children.length === 0;
    return `Fired as the fallback: no other route took the event${
      takesAll ? "" : `; ${whyMatched(explanation)}`
    }.`;
  }
  if (fired && matched) return `Fired: ${whyMatched(explanation)}.`;
  if (fired) {
    return `Fired when the event arrived; its filters were changed since and no longer match: ${
      whyNot(explanation)
    }.`;
  }
  if (!route.enabled) {
    return matched
      ? "Did not fire: the route is disabled (its filters match)."
      : `Did not fire: the route is disabled, and ${whyNot(explanation)}.`;
  }
  if (!matched) return `Did not fire: ${whyNot(explanation)}.`;
  if (route.fallback && otherFired) {
    return "Did not fire: it is a fallback and another route of the group fired.";
  }
  return "Matches now, but did not fire when the event arrived: it was added or changed since.";
}

/**
 * Each route of the group judged against the event, in stored order: whether it fired when
 * the event arrived, whether it matches now, and why. The routes share one evaluation budget,
 * as in delivery. Routes that fired but were deleted since close the list.
 */
function judgeRoutes(
  routes: readonly Route[],
  record: EventRoutes,
  payload: Record<string, unknown> | null,
): RouteVerdict[] {
  const fired = new Set(record.routeIds);
  const otherFired = routes.some((route) => fired.has(route.id) && route.fallback !== true);
  const budget = new EvaluationBudget();
  const verdicts = routes.map((route): RouteVerdict => {
    const base = {
      id: route.id,
      name: route.name,
      enabled: route.enabled,
      fallback: route.fallback === true,
      fired: fired.has(route.id),
    };
    if (payload === null) {
      return {
        ...base,
        matched: false,
        verdict: base.fired
          ? "Fired."
          : "Did not fire; the payload is past retention, so no reason is shown.",
      };
    }
    try {
      const explanation = explain(routeFilterNode(route), {
        kind: record.kind,
        action: record.action,
        payload,
        budget,
      });
      return {
        ...base,
        matched: explanation.matched,
        verdict: verdictOf(route, base.fired, explanation, otherFired),
        explanation,
      };
    } catch (error) {
      if (error instanceof FilterEvaluationError) {
        return {
          ...base,
          matched: false,
          verdict: "Did not fire: its filters could not be evaluated within the per-event budget.",
          error: error.message,
        };
      }
      // A tree stored before a validation rule existed: compiling its leaves refuses it.
      if (!(error instanceof TypeError)) throw error;
      return {
        ...base,
        matched: false,
        verdict: "Did not fire: its filters are invalid.",
        error: error.message,
      };
    }
  });
  const current = new Set(routes.map((route) => route.id));
  for (const id of record.routeIds) {
    if (current.has(id)) continue;
    verdicts.push({
      id,
      name: id,
      enabled: false,
      fallback: false,
      fired: true,
      matched: false,
      verdict: "Fired when the event arrived; the route was deleted since.",
      deleted: true,
    });
  }
  return verdicts;
}

async function payloadOf(kv: Kv, eventId: string): Promise<Record<string, unknown> | null> {
  try {
    return (await loadEvent(kv, eventId))?.payload ?? null;
  } catch {
    return null;
  }
}

/**
 * `GET /admin/api/groups/:id/events/:eventId`: one event of the group, its payload, each route
 * of the group with matched or not and why, and the event's send logs in the group. 404 when
 * the group has no record of the event (an event of another group included).
 */
export async function getGroupEvent(
  kv: Kv,
  principal: Principal,
  groupId: string,
  eventId: string,
): Promise<GroupEventDetail> {
  const { internalId } = await readableGroup(kv, principal, groupId);
  const record = await getEventRoutes(kv, internalId, eventId);
  if (record === null) throw new HttpError(404, `Group ${groupId} has no event ${eventId}`);
  const [payload, stored, delivery] = await Promise.all([
    payloadOf(kv, eventId),
    getGroupRoutes(kv, groupId),
    listDeliveryLogs(kv, record.deliveryId ?? eventId),
  ]);
  const logs = delivery.filter((log) => log.eventId === eventId && historyIdOf(log) === internalId);
  return {
    event: groupEventOf(record),
    payload,
    routes: judgeRoutes(stored.routes, record, payload),
    logs: logs.map(publicLog),
  };
}
