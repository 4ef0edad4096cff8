/**
 * What keeps a group's routes from reaching the chat, found before anyone has to ask: a route
 * whose filter does not pass this version's rules (stored before a rule was tightened: it never
 * fires), a route whose platform this instance is not configured for, a target the bot cannot post to or that
 * keeps failing (its health record holds its messages: the platform refused it for good, or it
 * failed many times in a row), and a route that has not fired for
 * any of the many events its group received since its routes last changed. Each problem says
 * what is wrong and what to change. Read by the routes list, the overview, the group page and
 * the route editor (`GET /admin/api/groups/:id/problems`).
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { HttpError } from "../fresh/mod.ts";
import { canReadGroup } from "../auth/principal.ts";
import { readGroupEntry, readGroupSet } from "../store/config/group_set.ts";
import { getGroupRoutes, getRoutes } from "../store/config/routes.ts";
import { requireRight } from "./guards.ts";
import type { Config } from "../config.ts";
import type { Platform, Route, Target } from "../types.ts";
import { describeTargetRef } from "../target_ref.ts";
import { assertValidNode, routeFilterNode } from "../routing/compile.ts";
import { auditNewestFirst } from "../store/telemetry/audit.ts";
import { listEventRoutes } from "../store/delivery/event_routes.ts";
import { chatPlatform, perPlatform } from "../delivery/adapters.ts";
import {
  isHolding,
  listHeldUnits,
  listTargetHealth,
  type TargetHealth,
  targetKeyOf,
} from "../store/delivery/target_health.ts";

/** The kinds of problem, most urgent first. */
type RouteProblemKind =
  | "filter_invalid"
  | "platform_not_configured"
  | "target_paused"
  | "not_firing";

/** One problem of one route. */
export interface RouteProblem {
  kind: RouteProblemKind;
  routeId: string;
  routeName: string;
  /** The target it is about, for the target kinds. */
  target?: Target;
  /** For `target_paused`: the target's key (what Resume and Discard name) and what it holds. */
  targetKey?: string;
  held?: number;
  /** What is wrong, in words. */
  message: string;
  /** What to change. */
  fix: string;
}

/** How far back a route's silence is judged. */
const SILENCE_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;
/** A route is called silent only after its group received at least this many events. */
export const SILENCE_MIN_EVENTS = 20;
/** Most routed events read to judge silence. */
const SILENCE_EVENTS_READ = 500;
/** Most audit entries read to find the last change of the group's routes. */
const AUDIT_READ = 200;

/** The platforms this instance can post to, for pages that warn while a route is edited. */
export function configuredPlatforms(config: Config): Record<Platform, boolean> {
  return perPlatform((platform) => platform.configured(config));
}

/** The fix for a platform this instance has no bot token for. */
function platformFix(platform: Platform): string {
  const setting = chatPlatform(platform).tokenSetting;
  return `Set ${setting} in Switchyard's settings and restart it; messages wait until then.`;
}

function unconfiguredProblems(config: Config, route: Route): RouteProblem[] {
  const platforms = new Set(route.targets.map((target) => target.platform));
  const configured = configuredPlatforms(config);
  return [...platforms].filter((platform) => !configured[platform]).map((platform) => ({
    kind: "platform_not_configured",
    routeId: route.id,
    routeName: route.name,
    message: `${chatPlatform(platform).name} is not configured on this Switchyard, so no ` +
      `${chatPlatform(platform).name} message can be sent.`,
    fix: platformFix(platform),
  }));
}

/**
 * Why each route's filter fails validation (null: it passes), kept per route object: while the
 * route set is unchanged its routes are the same frozen objects, so each is checked once.
 */
const filterErrors = new WeakMap<Route, string | null>();

function filterErrorOf(route: Route): string | null {
  let error = filterErrors.get(route);
  if (error === undefined) {
    try {
      assertValidNode(routeFilterNode(route));
      error = null;
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
    }
    filterErrors.set(route, error);
  }
  return error;
}

/** Routes whose filter does not pass validation, so they never fire. */
function invalidFilterProblems(routes: readonly Route[]): RouteProblem[] {
  return routes.flatMap((route): RouteProblem[] => {
    const error = filterErrorOf(route);
    return error === null ? [] : [{
      kind: "filter_invalid",
      routeId: route.id,
      routeName: route.name,
      message: `Its filter does not pass this version's rules (${error}), so it never fires.`,
      fix: "Open the route, correct its filter and save it.",
    }];
  });
}

function unreachableFix(target: Target): string {
  return chatPlatform(target.platform).cannotPostFix.sentence;
}

/** Most held units counted for one paused target. */
const HELD_COUNTED = 1_000;

/** Each broken or paused target of the group, with Resume and Discard (`targetKey`). */
async function pausedProblems(
  kv: Kv,
  internalId: string,
  routes: readonly Route[],
): Promise<RouteProblem[]> {
  const paused = (await listTargetHealth(kv, internalId)).filter((h) => isHolding(h.state));
  return await Promise.all(paused.map(async (health: TargetHealth): Promise<RouteProblem> => {
    const targetKey = targetKeyOf(health.target);
    const route = routes.find((r) => r.targets.some((t) => targetKeyOf(t) === targetKey));
    const held = (await listHeldUnits(kv, internalId, targetKey, HELD_COUNTED)).length;
    const answer = health.httpStatus === undefined ? "" : ` (answer ${health.httpStatus}` +
      `${health.lastError ? `: ${health.lastError.slice(0, 200)}` : ""})`;
    return {
      kind: "target_paused",
      routeId: route?.id ?? "",
      routeName: route?.name ?? "no route",
      target: health.target,
      targetKey,
      held,
      message: `${describeTargetRef(health.target)} is paused: ` +
        (health.state === "broken"
          ? `the bot cannot post there${answer}`
          : `it failed ${health.failures} times in a row${answer}`) +
        `. ${held >= HELD_COUNTED ? `${HELD_COUNTED} or more` : held} ` +
        `message${held === 1 ? " is" : "s are"} held.`,
      fix: `${
        health.state === "broken" ? unreachableFix(health.target) : "Check the platform."
      } Then Resume sends what is held, in order; Discard drops it (the logs say so).`,
    };
  }));
}

/** When the group's routes last changed (0 when no change is in its recent audit entries). */
async function routesChangedAt(kv: Kv, internalId: string): Promise<number> {
  for await (const entry of auditNewestFirst(kv, { internalId, limit: AUDIT_READ })) {
    if (entry.action === "routes.replace") return entry.at;
  }
  return 0;
}

/**
 * Which of `watched` fired for any of the group's events since `since`, and how many events
 * were read. Reading stops once every watched route has fired (no route can be silent then),
 * so a busy group whose routes all fire costs a few reads, not {@link SILENCE_EVENTS_READ}.
 */
async function firedSince(
  kv: Kv,
  internalId: string,
  since: number,
  watched: readonly Route[],
) {
  const waiting = new Set(watched.map((route) => route.id));
  const fired = new Set<string>();
  let events = 0;
  for await (const record of listEventRoutes(kv, internalId)) {
    if (record.receivedAt <= since || events >= SILENCE_EVENTS_READ) break;
    events++;
    for (const routeId of record.routeIds) {
      fired.add(routeId);
      waiting.delete(routeId);
    }
    if (waiting.size === 0) break;
  }
  return { fired, events };
}

async function silentProblems(
  kv: Kv,
  internalId: string,
  routes: readonly Route[],
  now: number,
): Promise<RouteProblem[]> {
  const watched = routes.filter((route) => route.enabled && !route.fallback);
  if (watched.length === 0) return [];
  const since = Math.max(now - SILENCE_WINDOW_MS, await routesChangedAt(kv, internalId));
  const { fired, events } = await firedSince(kv, internalId, since, watched);
  if (events < SILENCE_MIN_EVENTS) return [];
  const days = Math.max(1, Math.round((now - since) / (24 * 60 * 60 * 1000)));
  return watched.filter((route) => !fired.has(route.id)).map((route) => ({
    kind: "not_firing",
    routeId: route.id,
    routeName: route.name,
    message: `Did not fire for any of the last ${events} events this group ` +
      `received (${days === 1 ? "since yesterday" : `in ${days} days`}).`,
    fix: "Open one of the group's events under Events to see why it did not match, " +
      "or send a test event from the route editor.",
  }));
}

/**
 * Every problem of a group's routes (enabled or not for the platform and target kinds; only
 * enabled, non-fallback routes can be silent), most urgent kind first.
 */
async function findRouteProblems(
  kv: Kv,
  config: Config,
  group: { internalId: string; routes: readonly Route[] },
  now = Date.now(),
): Promise<RouteProblem[]> {
  const [silent, paused] = await Promise.all([
    silentProblems(kv, group.internalId, group.routes, now),
    pausedProblems(kv, group.internalId, group.routes),
  ]);
  return [
    ...invalidFilterProblems(group.routes),
    ...group.routes.flatMap((route) => unconfiguredProblems(config, route)),
    ...paused,
    ...silent,
  ];
}

/** `GET /admin/api/groups/:id/problems`: the problems of the group's routes (any member). */
export async function listGroupProblems(
  kv: Kv,
  config: Config,
  principal: Principal,
  groupId: string,
): Promise<{ problems: RouteProblem[] }> {
  const { entry } = await readGroupEntry(kv, groupId);
  if (entry === null) throw new HttpError(404, `Unknown group ${groupId}`);
  requireRight(principal, groupId, "read");
  const { routes } = await getGroupRoutes(kv, groupId);
  return {
    problems: await findRouteProblems(kv, config, { internalId: entry.internalId, routes }),
  };
}

/** One group's problems, for the overview. */
export interface GroupProblems {
  groupId: string;
  groupName: string;
  problems: RouteProblem[];
}

/** Most groups the overview looks at (the person's first ones, in id order). */
const OVERVIEW_GROUPS = 20;

/** The problems of the groups the person can read (at most {@link OVERVIEW_GROUPS}). */
export async function problemsOfReadableGroups(
  kv: Kv,
  config: Config,
  principal: Principal,
  now = Date.now(),
): Promise<GroupProblems[]> {
  const [{ entries }, { routes }] = await Promise.all([readGroupSet(kv), getRoutes(kv)]);
  const readable = entries.filter((entry) => canReadGroup(principal, entry.group.id))
    .slice(0, OVERVIEW_GROUPS);
  const found = await Promise.all(readable.map(async ({ group, internalId }) => ({
    groupId: group.id,
    groupName: group.name,
    problems: await findRouteProblems(kv, config, {
      internalId,
      routes: routes.filter((route) => route.groupId === group.id),
    }, now),
  })));
  return found.filter((group) => group.problems.length > 0);
}
