/**
 * Listing and replacing routes (spec payload rule 1). A submitted route identical to the stored
 * route with the same group and id skips full validation; every other route is checked with
 * the shared `routeSchema`. A replacement is one switch of the versioned route set
 * (`lib/store/config/routes.ts`), committed with its audit entries (one per group whose routes
 * changed). With `If-Match` a stale version answers 409; without it the last writer wins, but
 * the routes of groups the caller may not edit are always kept as they are stored now.
 * Every target of a new or changed route must be allowed for its group (`route_targets.ts`).
 */
import type { Kv } from "../store/backend/types.ts";
import { z } from "zod";
import { canEditRoutes, type Principal, readableGroups } from "../auth/principal.ts";
import { routeSchema } from "../model/schema.ts";
import { HttpError } from "../fresh/mod.ts";
import { MAX_ROUTES } from "../limits.ts";
import { templateError } from "../template/mod.ts";
import { newAuditEntry } from "../store/telemetry/audit.ts";
import { listGroups } from "../store/config/groups.ts";
import {
  getGroupRoutes,
  getRoutes,
  replaceGroupRoutes,
  replaceRoutes,
  type ReplaceRoutesResult,
} from "../store/config/routes.ts";
import type { Route } from "../types.ts";
import { parseOr400 } from "./endpoint.ts";
import { actorOf, requireGroup, requireRight } from "./guards.ts";
import { enforceTargetOwnership, type SubmittedRoute } from "./route_targets.ts";
import { sameJson } from "../same_json.ts";
import { Versioned } from "./versioned.ts";

const envelopeSchema = z.strictObject({
  routes: z.array(z.unknown()).max(MAX_ROUTES, {
    error: `at most ${MAX_ROUTES} routes per instance`,
  }),
});

const ATTEMPTS = 5;

const routeKey = (route: { groupId: unknown; id: unknown }) => `${route.groupId}\u0000${route.id}`;

function storedTwin(raw: unknown, stored: ReadonlyMap<string, Route>): Route | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const twin = stored.get(routeKey(raw as Route));
  return twin && sameJson(raw, twin) ? twin : undefined;
}

/** The route when its template (if any) parses; a 400 naming the problem's place otherwise. */
function checkTemplate(route: Route, index: number): Route {
  const error = route.template && templateError(route.template);
  if (error) throw new HttpError(400, `routes[${index}].template.${error}`);
  return route;
}

/**
 * Validates a `{ routes }` body against the stored routes: unchanged routes are taken as they
 * are, the others are checked with `routeSchema` (and their templates with the template
 * parser); ids must be unique within a group.
 */
export function validateRoutesBody(body: unknown, stored: readonly Route[]): Route[] {
  const { routes } = parseOr400(envelopeSchema, body);
  const byKey = new Map(stored.map((route) => [routeKey(route), route]));
  const valid = routes.map((raw, index) =>
    storedTwin(raw, byKey) ?? checkTemplate(parseOr400(routeSchema, raw, ["routes", index]), index)
  );
  const seen = new Set<string>();
  valid.forEach((route, index) => {
    if (seen.has(routeKey(route))) {
      throw new HttpError(
        400,
        `routes[${index}].id: duplicate route id "${route.id}" in group "${route.groupId}"`,
      );
    }
    seen.add(routeKey(route));
  });
  return valid;
}

function requireKnownGroups(routes: readonly Route[], stored: readonly Route[], ids: Set<string>) {
  const byKey = new Map(stored.map((route) => [routeKey(route), route]));
  routes.forEach((route, index) => {
    if (!ids.has(route.groupId) && !sameJson(route, byKey.get(routeKey(route)))) {
      throw new HttpError(400, `routes[${index}].groupId: unknown group "${route.groupId}"`);
    }
  });
}

/** Answers a failed replacement with the right status. */
function refuseReplacement(result: Exclude<ReplaceRoutesResult, { ok: true }>): never {
  switch (result.reason) {
    case "conflict":
      throw new HttpError(409, "The routes changed since they were read; reload and try again");
    case "too_many":
      throw new HttpError(400, `routes: at most ${result.limit} routes per instance`);
    case "too_large":
      throw new HttpError(400, `routes: route "${result.routeId}" is too large to store`);
  }
}

/** The submitted routes (with their positions) that the caller changes: new or different. */
function changedRoutes(
  principal: Principal,
  stored: readonly Route[],
  submitted: readonly Route[],
): SubmittedRoute[] {
  const byKey = new Map(stored.map((route) => [routeKey(route), route]));
  return submitted
    .map((route, index) => ({ route, index }))
    .filter(({ route }) =>
      (principal.superAdmin || canEditRoutes(principal, route.groupId)) &&
      !sameJson(route, byKey.get(routeKey(route)))
    );
}

function groupsOf(routes: readonly Route[]): Set<string> {
  return new Set(routes.map((route) => route.groupId));
}

function changedGroups(before: readonly Route[], after: readonly Route[]): string[] {
  const ids = new Set([...groupsOf(before), ...groupsOf(after)]);
  return [...ids].filter((id) =>
    !sameJson(
      before.filter((route) => route.groupId === id),
      after.filter((route) => route.groupId === id),
    )
  );
}

function routeAudits(principal: Principal, groupIds: string[], routes: readonly Route[]) {
  const at = Date.now();
  return groupIds.map((groupId) =>
    newAuditEntry({
      actor: actorOf(principal),
      action: "routes.replace",
      groupId,
      detail: { count: routes.filter((route) => route.groupId === groupId).length },
    }, at)
  );
}

/** The routes the caller may read, with the route set's version as `ETag`. */
export async function listRoutes(
  kv: Kv,
  principal: Principal,
): Promise<Versioned<{ routes: Route[] }>> {
  const stored = await getRoutes(kv);
  const readable = new Set(readableGroups(principal, await listGroups(kv)).map((g) => g.id));
  const routes = principal.superAdmin
    ? stored.routes
    : stored.routes.filter((route) => readable.has(route.groupId));
  return new Versioned({ routes }, stored.versionstamp);
}

/**
 * The route set after the caller's submission: a super admin replaces everything; anyone else
 * replaces the routes of the groups they may edit and must leave the others as stored.
 */
function mergeSubmission(principal: Principal, stored: Route[], submitted: Route[]): Route[] {
  if (principal.superAdmin) return submitted;
  for (const groupId of groupsOf(submitted)) {
    if (canEditRoutes(principal, groupId)) continue;
    const before = stored.filter((route) => route.groupId === groupId);
    const after = submitted.filter((route) => route.groupId === groupId);
    if (!sameJson(before, after)) requireRight(principal, groupId, "edit");
  }
  return [
    ...stored.filter((route) => !canEditRoutes(principal, route.groupId)),
    ...submitted.filter((route) => canEditRoutes(principal, route.groupId)),
  ];
}

/** `PUT /admin/api/routes`: replaces the routes the caller may edit. */
export async function replaceAllRoutes(
  kv: Kv,
  principal: Principal,
  body: unknown,
  expected: string | null | undefined,
): Promise<{ ok: true; count: number }> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const stored = await getRoutes(kv);
    if (expected !== undefined && expected !== stored.versionstamp) {
      refuseReplacement({ ok: false, reason: "conflict" });
    }
    const submitted = validateRoutesBody(body, stored.routes);
    const groupIds = new Set((await listGroups(kv)).map((group) => group.id));
    requireKnownGroups(submitted, stored.routes, groupIds);
    const next = mergeSubmission(principal, stored.routes, submitted);
    const changed = changedGroups(stored.routes, next);
    if (changed.length === 0) return { ok: true, count: submitted.length };
    await enforceTargetOwnership(kv, principal, changedRoutes(principal, stored.routes, submitted));
    const audits = routeAudits(principal, changed, next);
    const result = await replaceRoutes(kv, next, stored.versionstamp, { audits });
    if (result.ok) return { ok: true, count: submitted.length };
    if (result.reason !== "conflict" || expected !== undefined) refuseReplacement(result);
  }
  return refuseReplacement({ ok: false, reason: "conflict" });
}

/** `GET /admin/api/groups/:id/routes`. */
export async function listGroupRoutes(
  kv: Kv,
  principal: Principal,
  groupId: string,
): Promise<Versioned<{ routes: Route[] }>> {
  await requireGroup(kv, principal, groupId, "read");
  const stored = await getGroupRoutes(kv, groupId);
  return new Versioned({ routes: stored.routes }, stored.versionstamp);
}

/**
 * `PUT /admin/api/groups/:id/routes`: replaces one group's routes, keeping its place. Answers
 * `{ ok, count }` with the new version of the route set as `ETag`, so the console can save
 * again without reading first.
 */
export async function replaceRoutesOfGroup(
  kv: Kv,
  principal: Principal,
  groupId: string,
  body: unknown,
  expected: string | null | undefined,
): Promise<Versioned<{ ok: boolean; count: number }>> {
  await requireGroup(kv, principal, groupId, "edit");
  const stored = await getGroupRoutes(kv, groupId);
  const routes = validateRoutesBody(body, stored.routes);
  routes.forEach((route, index) => {
    if (route.groupId !== groupId) {
      throw new HttpError(
        400,
        `routes[${index}].groupId: must be "${groupId}", the group in the path`,
      );
    }
  });
  await enforceTargetOwnership(kv, principal, changedRoutes(principal, stored.routes, routes));
  const audits = routeAudits(principal, [groupId], routes);
  const result = await replaceGroupRoutes(kv, groupId, routes, expected, { audits });
  if (!result.ok) refuseReplacement(result);
  return new Versioned({ ok: true, count: routes.length }, result.versionstamp);
}
