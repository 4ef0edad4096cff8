/**
 * Route selection: which stored routes fire for an event. Routes are compiled
 * once (`compileRoutes`) and selected per event without recompiling. Browser-safe.
 *
 * Each group's routes share one evaluation budget per event, so a costly route spends only
 * its own group's budget and never another tenant's. A route whose filters cannot be
 * evaluated within the budget does not fire and is reported as not evaluated; it does not
 * suppress its group's fallback, so the event still reaches the group. Selection pauses
 * (lets other work run) whenever it has spent a slice of steps, so a large event never holds
 * the process for long. Routes are evaluated through their route set: a route that cannot
 * match the event's kind is skipped without spending steps, and a leaf shared by several
 * routes is evaluated once per event but charged to each route's budget as if evaluated alone.
 */
import type { ForgeEvent, Group, Route, Scope } from "../types.ts";
import { EVALUATION_STEPS, EvaluationBudget } from "../jsonpath/budget.ts";
import { compile, type CompiledFilter, type EvaluationInput, routeFilterNode } from "./compile.ts";
import type { LeafMemo } from "./leaf_memo.ts";
import { compileRouteSet, type RouteSet } from "./route_set.ts";

/** A route with its compiled filter. A route that failed to compile never fires. */
export interface CompiledRoute {
  route: Route;
  matches: CompiledFilter;
  /** Why the route could not be compiled, when it could not. */
  error?: string;
}

/** What selection reads from an event. */
type SelectableEvent = Pick<ForgeEvent, "kind" | "action" | "provider" | "payload">;

/** Compiled routes, in stored order, with the route set selection evaluates them through. */
export type CompiledRoutes = CompiledRoute[] & { readonly routeSet: RouteSet };

/** A route's own compiled filter, built on first use (selection goes through the route set). */
function lazyFilter(route: Route): CompiledFilter {
  let compiled: CompiledFilter | undefined;
  return (input) => (compiled ??= compile(routeFilterNode(route)))(input);
}

/**
 * Compiles every route once, together (shared leaves, an index by event kind); the result is
 * reused for every event until the routes change.
 */
export function compileRoutes(routes: readonly Route[]): CompiledRoutes {
  const { set, errors } = compileRouteSet(routes.map(routeFilterNode));
  const compiled = routes.map((route, position): CompiledRoute => {
    const error = errors[position];
    return error === undefined
      ? { route, matches: lazyFilter(route) }
      : { route, matches: () => false, error };
  });
  // Not enumerable: the list still compares and prints as the plain list of routes.
  return Object.defineProperty(compiled, "routeSet", {
    value: set,
    enumerable: false,
  }) as CompiledRoutes;
}

const routeSetsOfLists = new WeakMap<readonly CompiledRoute[], RouteSet>();

/** The route set of a list from `compileRoutes`, or one built once for any other list. */
function routeSetOf(routes: readonly CompiledRoute[]): RouteSet {
  const known = (routes as Partial<CompiledRoutes>).routeSet ?? routeSetsOfLists.get(routes);
  if (known) return known;
  const built = compileRoutes(routes.map(({ route }) => route)).routeSet;
  routeSetsOfLists.set(routes, built);
  return built;
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
function eventEntersGroup(event: SelectableEvent, group: Group): boolean {
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
 * Whether a group claimed an event through fields only a super admin or the installation
 * sets: its `installationId` is the event's installation, or its `owners` names the event's
 * repository owner or organization.
 */
function groupClaimsEvent(event: SelectableEvent, group: Group): boolean {
  const installationId = installationIdOf(event.payload);
  if (group.installationId !== undefined && installationId === group.installationId) return true;
  if (!group.owners || group.owners.length === 0) return false;
  const owners = new Set(group.owners.map((owner) => owner.toLowerCase()));
  return ownerLoginsOf(event.payload).some((login) => owners.has(login));
}

/**
 * The groups a global event may enter: when its `installation.id` is bound to groups, only
 * those (so an installation's events never reach another tenant); otherwise every group, or
 * with `claimed` the groups that claimed it.
 */
function globalEntrants(
  event: SelectableEvent,
  groups: readonly Group[],
  globalIngress: "all" | "claimed" | undefined,
): readonly Group[] {
  const installationId = installationIdOf(event.payload);
  const bound = installationId === undefined
    ? []
    : groups.filter((group) => group.installationId === installationId);
  if (bound.length > 0) return bound;
  return globalIngress === "claimed" ? groups.filter((g) => groupClaimsEvent(event, g)) : groups;
}

/** A route that could not be evaluated for an event, and why. */
interface UnevaluatedRoute {
  route: Route;
  reason: string;
}

/** The routes that fire for an event, and the routes that could not be evaluated. */
interface Selection {
  routes: Route[];
  notEvaluated: UnevaluatedRoute[];
  /** The ids of the groups the event entered (whose routes were evaluated on it). */
  entered: string[];
}

/** How selection spends and shares time, and which groups global events enter. */
interface SelectOptions {
  /**
   * Global ingress only, for events whose installation no group is bound to: `all` groups
   * (default), or only groups that `claimed` the event (whose `owners` names its repository
   * owner or organization).
   */
  globalIngress?: "all" | "claimed";
  /** Steps each group may spend on one event (default EVALUATION_STEPS). */
  stepsPerGroup?: number;
  /** Lets other work run; called after every PAUSE_AFTER_STEPS steps (default: a macrotask). */
  pause?: () => Promise<void>;
}

/** Selection pauses after spending this many steps since its last pause. */
const PAUSE_AFTER_STEPS = 20_000;

const nextMacrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The routes that fire for an event, in stored order, and those that could not be evaluated.
 * Only enabled routes of groups the event may enter count (global ingress: the groups bound to
 * the event's installation when there are any, else every group, or with `globalIngress:
 * "claimed"` the groups that claimed it; a group's ingress: that group). A fallback route fires
 * only when its filters match and no non-fallback route of its group fired.
 */
export async function selectRoutes(
  event: SelectableEvent,
  scope: Scope,
  routes: readonly CompiledRoute[],
  groups: readonly Group[],
  options: SelectOptions = {},
): Promise<Selection> {
  const open = new Set(
    (scope.type === "global"
      ? globalEntrants(event, groups, options.globalIngress)
      : groups.filter((group) => group.id === scope.groupId))
      .filter((group) => eventEntersGroup(event, group))
      .map((group) => group.id),
  );
  const routeSet = routeSetOf(routes);
  const memo = routeSet.newMemo();
  /** Each group's input: the event with the group's own budget. */
  const inputs = new Map<string, EvaluationInput & { memo: LeafMemo }>();
  const pause = options.pause ?? nextMacrotask;
  const notEvaluated: UnevaluatedRoute[] = [];
  const fired: Route[] = [];
  let sincePause = 0;
  for (const position of routeSet.candidates(event.kind)) {
    const { route, error } = routes[position];
    if (error !== undefined || !route.enabled || !open.has(route.groupId)) continue;
    let input = inputs.get(route.groupId);
    if (!input) {
      const budget = new EvaluationBudget(options.stepsPerGroup ?? EVALUATION_STEPS);
      input = { kind: event.kind, action: event.action, payload: event.payload, budget, memo };
      inputs.set(route.groupId, input);
    }
    const budget = input.budget;
    const spentBefore = budget.spent;
    try {
      if (routeSet.matches(position, input)) fired.push(route);
    } catch (error) {
      notEvaluated.push({ route, reason: (error as Error).message });
    }
    sincePause += budget.spent - spentBefore;
    if (sincePause >= PAUSE_AFTER_STEPS) {
      sincePause = 0;
      await pause();
    }
  }
  const groupsWithRegularHit = new Set<string>();
  for (const route of fired) if (route.fallback !== true) groupsWithRegularHit.add(route.groupId);
  const selected = fired.filter((route) =>
    route.fallback !== true || !groupsWithRegularHit.has(route.groupId)
  );
  return { routes: selected, notEvaluated, entered: [...open] };
}
