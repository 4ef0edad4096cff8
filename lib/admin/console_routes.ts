/**
 * What the console's routes pages render: the groups to choose from with their route counts,
 * a group's ordered routes with the version the islands save against (`ETag`), and for the
 * route editor also the group's fragments and allowed chat targets. Each page reads the route
 * set once, whatever the number of routes. The same rights as the admin API apply: reading
 * needs membership (or super admin); the pages say whether the reader may edit.
 */
import type { Kv } from "../store/backend/types.ts";
import { canEditRoutes, type Principal, principalOf, readableGroups } from "../auth/principal.ts";
import type { Context } from "../fresh/mod.ts";
import type { State } from "../state.ts";
import { HttpError } from "../fresh/http_error.ts";
import { requireId } from "../http_guards.ts";
import { isId } from "../ids.ts";
import { getAllowedTargets } from "../store/config/allowed_targets.ts";
import { getFragments } from "../store/config/fragments.ts";
import { listGroups } from "../store/config/groups.ts";
import { getGroupRoutes, getRoutes } from "../store/config/routes.ts";
import type { TargetRef } from "../target_ref.ts";
import type { Fragment, Route } from "../types.ts";
import { readConsoleFrame } from "./console_frame.ts";
import { etagOf } from "./endpoint.ts";
import { findGroupEvent, listGroupEvents } from "./events.ts";
import { requireGroup } from "./guards.ts";
import { configuredPlatforms } from "./route_problems.ts";

/** A group as the routes index lists it. */
interface GroupRouteCounts {
  id: string;
  name: string;
  routes: number;
  enabled: number;
  canEdit: boolean;
}

/** The groups the principal can read, with how many routes each has (one read of each set). */
export async function loadRoutesIndex(
  kv: Kv,
  principal: Principal,
): Promise<GroupRouteCounts[]> {
  const [groups, stored] = await Promise.all([listGroups(kv), getRoutes(kv)]);
  const counts = new Map<string, { routes: number; enabled: number }>();
  for (const route of stored.routes) {
    const count = counts.get(route.groupId) ?? { routes: 0, enabled: 0 };
    count.routes++;
    if (route.enabled) count.enabled++;
    counts.set(route.groupId, count);
  }
  return readableGroups(principal, groups).map((group) => ({
    id: group.id,
    name: group.name,
    ...(counts.get(group.id) ?? { routes: 0, enabled: 0 }),
    canEdit: canEditRoutes(principal, group.id),
  }));
}

/** A group's routes page. */
interface GroupRoutesPage {
  group: { id: string; name: string };
  routes: Route[];
  /** The route set's version, for `If-Match`. */
  etag: string;
  canEdit: boolean;
}

/** A group's routes in stored order (404 unknown group, 403 not a member, 400 bad id). */
export async function loadGroupRoutesPage(
  kv: Kv,
  principal: Principal,
  groupId: string,
): Promise<GroupRoutesPage> {
  requireId("group", groupId, "group");
  const group = await requireGroup(kv, principal, groupId, "read");
  const stored = await getGroupRoutes(kv, groupId);
  return {
    group: { id: group.id, name: group.name },
    routes: stored.routes,
    etag: etagOf(stored.versionstamp),
    canEdit: canEditRoutes(principal, groupId),
  };
}

/** The route editor's page: the group's routes page, the route, fragments and targets. */
interface RouteEditorPage extends GroupRoutesPage {
  /** The route being edited; null for a new route. */
  routeId: string | null;
  fragments: Fragment[];
  fragmentsEtag: string;
  /** The chat targets the group may post into (suggested in the target fields). */
  allowedTargets: TargetRef[];
  /** The group's recent events, offered as samples (newest first). */
  recentEvents: RecentEvent[];
  /** The event to explain against first (`?event=`), when the group has a record of it. */
  sampleEventId: string | null;
}

/** A recent event of the group, as the sample menu lists it. */
interface RecentEvent {
  id: string;
  label: string;
}

/** Recent events offered as samples in the route editor. */
const RECENT_SAMPLES = 10;

function recentLabel(
  event: { kind: string; action?: string; repository?: string; receivedAt: number },
) {
  const name = event.action === undefined ? event.kind : `${event.kind}.${event.action}`;
  const at = new Date(event.receivedAt).toISOString().slice(0, 16).replace("T", " ");
  return [name, event.repository, at].filter(Boolean).join(" · ");
}

/** The editor for the route `routeId` of a group (404 when unknown), or for a new one. */
export async function loadRouteEditorPage(
  kv: Kv,
  principal: Principal,
  groupId: string,
  routeId: string | null,
  eventId: string | null = null,
): Promise<RouteEditorPage> {
  if (routeId !== null) requireId("group", routeId, "route");
  const base = await loadGroupRoutesPage(kv, principal, groupId);
  if (routeId !== null && !base.routes.some((route) => route.id === routeId)) {
    throw new HttpError(404, `Group ${groupId} has no route ${routeId}`);
  }
  const [fragments, allowed, recent] = await Promise.all([
    getFragments(kv, groupId),
    getAllowedTargets(kv, groupId),
    listGroupEvents(kv, principal, groupId, { limit: RECENT_SAMPLES }),
  ]);
  const recentEvents = recent.items.map((event) => ({ id: event.id, label: recentLabel(event) }));
  const wanted = isId("event", eventId) ? eventId : null;
  if (wanted !== null && !recentEvents.some((event) => event.id === wanted)) {
    const found = await findGroupEvent(kv, groupId, wanted);
    if (found) recentEvents.push({ id: found.id, label: recentLabel(found) });
  }
  return {
    ...base,
    routeId,
    fragments: fragments.fragments,
    fragmentsEtag: etagOf(fragments.versionstamp),
    allowedTargets: allowed.targets.map((entry) => entry.target),
    recentEvents,
    sampleEventId: recentEvents.some((event) => event.id === wanted) ? wanted : null,
  };
}

/**
 * What a route editor page renders for the request: the editor's data for the route `routeId` of
 * the group in the path (null: a new route), explained first against the `?event=` when the group
 * has it, the console frame, and the platforms this instance can post to. All but the frame are
 * the editor island's props, and go to the browser.
 */
export async function readRouteEditorPage(ctx: Context<State>, routeId: string | null) {
  const principal = principalOf(ctx);
  const [data, frame] = await Promise.all([
    loadRouteEditorPage(
      ctx.state.kv,
      principal,
      ctx.params.groupId,
      routeId,
      ctx.url.searchParams.get("event"),
    ),
    readConsoleFrame(ctx),
  ]);
  return { ...data, frame, platforms: configuredPlatforms(ctx.state.config) };
}

/** A route editor page's data, as {@link readRouteEditorPage} reads it. */
export type RouteEditorPageData = Awaited<ReturnType<typeof readRouteEditorPage>>;
