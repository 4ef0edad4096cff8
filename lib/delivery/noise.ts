/**
 * Sending a unit's message, with noise control (docs/noise.md): a unit of a route with
 * `quietHours`, `digest` or `threads` is held, gathered into a digest, or sent into its
 * subject's thread, instead of being posted as one more message. Units of other routes are
 * posted as they are. Everything happens at the unit's turn in its lane, every call through the
 * rate limiter (`chat_calls.ts`); the unit's send log records the digest it went into
 * (`digestId`).
 */
import { compile } from "../routing/compile.ts";
import { formatEvent } from "../format/mod.ts";
import type { SendResult } from "../platform/send_result.ts";
import { type DigestItem, getDigestMember } from "../store/delivery/digests.ts";
import { loadEvent } from "../store/delivery/events.ts";
import type { SendLog } from "../store/delivery/send_logs.ts";
import type { ForgeEvent, Route } from "../types.ts";
import type { ChatCalls } from "./chat_calls.ts";
import { joinWindow, type NoiseDeps, syncDigest } from "./digest.ts";
import { quietPeriodAt } from "./quiet_hours.ts";
import type { RouteCache } from "./route_cache.ts";
import { sendThreaded } from "./threads.ts";

/** What noise control needs from the delivery worker. */
interface NoiseControlDeps extends NoiseDeps {
  routes: RouteCache;
  retentionMs: number;
}

const TITLE_CHARS = 200;

function hasNoiseOptions(route: Route): boolean {
  return route.digest !== undefined || route.quietHours !== undefined || route.threads === true;
}

async function routeOf(deps: NoiseControlDeps, log: SendLog): Promise<Route | null> {
  const { routes } = await deps.routes.current();
  const found = routes.find(({ route }) =>
    route.groupId === log.groupId && route.id === log.routeId
  );
  return found?.route ?? null;
}

/** How an event is listed in a digest: its message's title and link. */
function itemOf(event: ForgeEvent | null, log: SendLog): DigestItem {
  const message = event && formatEvent(event);
  const title = (message?.title ?? `${log.event}${log.action ? `.${log.action}` : ""}`)
    .slice(0, TITLE_CHARS);
  return message?.url ? { title, url: message.url } : { title };
}

function isUrgent(route: Route, event: ForgeEvent | null): boolean {
  const urgent = route.quietHours?.urgent;
  if (!urgent || !event) return false;
  try {
    return compile(urgent)(event);
  } catch {
    return false;
  }
}

/** Sends one unit of a route with noise options (see the module comment). */
async function sendWithNoiseControl(
  deps: NoiseControlDeps,
  calls: ChatCalls,
  route: Route,
  log: SendLog,
  body: unknown,
): Promise<SendResult> {
  const member = await getDigestMember(deps.kv, log.id);
  if (member?.mode === "digested") return await syncDigest(deps, member.digestId, calls);
  const event = await loadEvent(deps.kv, log.eventId);
  if (!member) {
    const quiet = route.quietHours && quietPeriodAt(route.quietHours, deps.now());
    const spec = quiet && !isUrgent(route, event)
      ? { kind: "quiet" as const, period: quiet }
      : route.digest
      ? {
        kind: "burst" as const,
        windowMs: route.digest.windowSeconds * 1000,
        threshold: route.digest.threshold,
      }
      : null;
    if (spec) {
      const joined = await joinWindow(deps, spec, log, route, itemOf(event, log));
      if (joined.mode === "digested") return await syncDigest(deps, joined.digestId, calls);
    }
  }
  if (route.threads === true && event) {
    const threaded = await sendThreaded(deps, log, event, body, calls);
    if (threaded) return threaded;
  }
  return await calls.post(log.target, body, log.id);
}

/** Sends the message `body` of the unit `log`: with noise control when its route asks for it. */
export async function sendUnit(
  deps: NoiseControlDeps,
  calls: ChatCalls,
  log: SendLog,
  body: unknown,
): Promise<SendResult> {
  const route = await routeOf(deps, log);
  if (!route || !hasNoiseOptions(route)) return await calls.post(log.target, body, log.id);
  return await sendWithNoiseControl(deps, calls, route, log, body);
}
