/**
 * Route selection: which stored routes fire for an event (CONTRACT §4). Routes are compiled
 * once (`compileRoutes`) and selected per event without recompiling. Browser-safe.
 */
import type { ForgeEvent, Group, Route, Scope } from "../types.ts";
import { compile, type CompiledFilter, routeFilterNode } from "./compile.ts";

/** A route with its compiled filter. A route that failed to compile never fires. */
export interface CompiledRoute {
  route: Route;
  matches: CompiledFilter;
  /** Why the route could not be compiled, when it could not. */
  error?: string;
}

/** What selection reads from an event. */
export type SelectableEvent = Pick<ForgeEvent, "kind" | "action" | "provider" | "payload">;

/** Compiles every route once; the result is reused for every event until the routes change. */
export function compileRoutes(routes: readonly Route[]): CompiledRoute[] {
  return routes.map((route) => {
    try {
      return { route, matches: compile(routeFilterNode(route)) };
    } catch (error) {
      return { route, matches: () => false, error: (error as Error).message };
    }
  });
}

function installationIdOf(payload: Record<string, unknown>): number | undefined {
  const installation = payload.installation as { id?: unknown } | null | undefined;
  const id = installation?.id;
  return typeof id === "number" ? id : undefined;
}

function ownerLoginsOf(payload: Record<string, unknown>): string[] {
  const repository = payload.repository as { owner?: { login?: unknown } } | undefined;
  const organization = payload.organization as { login?: unknown } | undefined;
  return [repository?.owner?.login, organization?.login]
    .filter((login): login is string => typeof login === "string")
    .map((login) => login.toLowerCase());
}

/**
 * Whether an event may enter a group: the forge must be one of the group's `providers`, the
 * event's `installation.id` must not differ from the group's `installationId`, and the
 * repository owner or organization must be one of the group's `owners`. Custom events are
 * restricted by neither providers nor owners.
 */
export function eventEntersGroup(event: SelectableEvent, group: Group): boolean {
  const isForge = event.provider !== "custom";
  if (isForge && group.providers && !(group.providers as string[]).includes(event.provider)) {
    return false;
  }
  const installationId = installationIdOf(event.payload);
  if (
    group.installationId !== undefined && installationId !== undefined &&
    installationId !== group.installationId
  ) return false;
  if (isForge && group.owners && group.owners.length > 0) {
    const owners = new Set(group.owners.map((owner) => owner.toLowerCase()));
    if (!ownerLoginsOf(event.payload).some((login) => owners.has(login))) return false;
  }
  return true;
}

/**
 * The routes that fire for an event, in stored order. Only enabled routes of groups the event
 * may enter count (global ingress: every group; a group's ingress: that group). A fallback
 * route fires only when its filters match and no non-fallback route of its group fired.
 */
export function selectRoutes(
  event: SelectableEvent,
  scope: Scope,
  routes: readonly CompiledRoute[],
  groups: readonly Group[],
): Route[] {
  const open = new Set(
    groups
      .filter((group) => scope.type === "global" || group.id === scope.groupId)
      .filter((group) => eventEntersGroup(event, group))
      .map((group) => group.id),
  );
  const input = { kind: event.kind, action: event.action, payload: event.payload };
  const fired = routes.map(({ route, matches }) =>
    route.enabled && open.has(route.groupId) && matches(input)
  );
  const groupsWithRegularHit = new Set(
    routes.filter(({ route }, index) => fired[index] && route.fallback !== true)
      .map(({ route }) => route.groupId),
  );
  return routes
    .filter(({ route }, index) =>
      fired[index] && (route.fallback !== true || !groupsWithRegularHit.has(route.groupId))
    )
    .map(({ route }) => route);
}
