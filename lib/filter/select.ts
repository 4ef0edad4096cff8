/**
 * Route selection: which stored routes fire for an event. Routes are compiled
 * once (`compileRoutes`) and selected per event without recompiling. Browser-safe.
 *
 * Each group's routes share one evaluation budget per event, so a costly route spends only
 * its own group's budget and never another tenant's. A route whose filters cannot be
 * evaluated within the budget does not fire and is reported as not evaluated; it does not
 * suppress its group's fallback, so the event still reaches the group. Selection pauses
 * (lets other work run) whenever it has spent a slice of steps, so a large event never holds
 * the process for long.
 */
import type { ForgeEvent, Group, Route, Scope } from "../types.ts";
import { EVALUATION_STEPS, EvaluationBudget } from "./budget.ts";
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
export function groupClaimsEvent(event: SelectableEvent, group: Group): boolean {
  const installationId = installationIdOf(event.payload);
  if (group.installationId !== undefined && installationId === group.installationId) return true;
  if (!group.owners || group.owners.length === 0) return false;
  const owners = new Set(group.owners.map((owner) => owner.toLowerCase()));
  return ownerLoginsOf(event.payload).some((login) => owners.has(login));
}

/** A route that could not be evaluated for an event, and why. */
export interface UnevaluatedRoute {
  route: Route;
  reason: string;
}

/** The routes that fire for an event, and the routes that could not be evaluated. */
export interface Selection {
  routes: Route[];
  notEvaluated: UnevaluatedRoute[];
  /** The ids of the groups the event entered (whose routes were evaluated on it). */
  entered: string[];
}

/** How selection spends and shares time, and which groups global events enter. */
export interface SelectOptions {
  /**
   * Global ingress only: `all` groups (default), or only groups that `claimed` the event (bound
   * to its installation, or whose `owners` names its repository owner or organization).
   */
  globalIngress?: "all" | "claimed";
  /** Steps each group may spend on one event (default EVALUATION_STEPS). */
  stepsPerGroup?: number;
  /** Lets other work run; called after every PAUSE_AFTER_STEPS steps (default: a macrotask). */
  pause?: () => Promise<void>;
}

/** Selection pauses after spending this many steps since its last pause. */
export const PAUSE_AFTER_STEPS = 20_000;

const nextMacrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The routes that fire for an event, in stored order, and those that could not be evaluated.
 * Only enabled routes of groups the event may enter count (global ingress: every group, or
 * with `globalIngress: "claimed"` the groups that claimed it; a group's ingress: that group). A fallback route fires only when its filters match and no
 * non-fallback route of its group fired.
 */
export async function selectRoutes(
  event: SelectableEvent,
  scope: Scope,
  routes: readonly CompiledRoute[],
  groups: readonly Group[],
  options: SelectOptions = {},
): Promise<Selection> {
  const open = new Set(
    groups
      .filter((group) =>
        scope.type === "global"
          ? options.globalIngress !== "claimed" || groupClaimsEvent(event, group)
          : group.id === scope.groupId
      )
      .filter((group) => eventEntersGroup(event, group))
      .map((group) => group.id),
  );
  const budgets = new Map<string, EvaluationBudget>();
  const pause = options.pause ?? nextMacrotask;
  const notEvaluated: UnevaluatedRoute[] = [];
  const fired: boolean[] = [];
  let sincePause = 0;
  for (const { route, matches } of routes) {
    if (!route.enabled || !open.has(route.groupId)) {
      fired.push(false);
      continue;
    }
    let budget = budgets.get(route.groupId);
    if (!budget) {
      budget = new EvaluationBudget(options.stepsPerGroup ?? EVALUATION_STEPS);
      budgets.set(route.groupId, budget);
    }
    const spentBefore = budget.spent;
    try {
      fired.push(
        matches({ kind: event.kind, action: event.action, payload: event.payload, budget }),
      );
    } catch (error) {
      fired.push(false);
      notEvaluated.push({ route, reason: (error as Error).message });
    }
    sincePause += budget.spent - spentBefore;
    if (sincePause >= PAUSE_AFTER_STEPS) {
      sincePause = 0;
      await pause();
    }
  }
  const groupsWithRegularHit = new Set(
    routes.filter(({ route }, index) => fired[index] && route.fallback !== true)
      .map(({ route }) => route.groupId),
  );
  const selected = routes
    .filter(({ route }, index) =>
      fired[index] && (route.fallback !== true || !groupsWithRegularHit.has(route.groupId))
    )
    .map(({ route }) => route);
  return { routes: selected, notEvaluated, entered: [...open] };
}
