/**
 * Noise control in delivery (docs/noise.md): the platform senders wrapped so that a unit of a
 * route with `quietHours`, `digest` or `threads` is held, gathered into a digest, or sent into
 * its subject's thread, instead of being posted as one more message. Units of other routes go
 * straight to the platform. Everything happens at the unit's turn in its lane, so order and the
 * lane's rate limits hold; the unit's send log records the digest it went into (`digestId`).
 */
import { compile } from "../filter/compile.ts";
import { formatEvent } from "../format/mod.ts";
import type { SendResult } from "../platform/send_result.ts";
import { type DigestItem, getDigestMember, isDigestCloseJob } from "../store/digests.ts";
import { loadEvent } from "../store/events.ts";
import type { QueueHandler } from "../store/queue.ts";
import { getSendLog, type SendLog } from "../store/send_logs.ts";
import type { ForgeEvent, Route, Target } from "../types.ts";
import { closeDigest, joinWindow, type NoiseDeps, syncDigest } from "./digest.ts";
import { quietPeriodAt } from "./quiet_hours.ts";
import type { RouteCache } from "./route_cache.ts";
import type { PlatformSender } from "./senders.ts";
import { sendThreaded } from "./threads.ts";

/** What the wrapped senders need. */
export interface NoiseControlDeps extends NoiseDeps {
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
  sender: PlatformSender,
  route: Route,
  log: SendLog,
  body: unknown,
): Promise<SendResult> {
  const post = (id: string, target: Target, payload: unknown) => sender.send(id, target, payload);
  const member = await getDigestMember(deps.kv, log.id);
  if (member?.mode === "digested") return await syncDigest(deps, member.digestId, post);
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
      if (joined.mode === "digested") return await syncDigest(deps, joined.digestId, post);
    }
  }
  if (route.threads === true && event) {
    const threaded = await sendThreaded(deps, log, event, body, post);
    if (threaded) return threaded;
  }
  return await sender.send(log.id, log.target, body);
}

/**
 * The senders with noise control in front of each `send`; everything else a sender offers
 * (its limiter, whether it is configured) is the sender's own.
 */
export function withNoiseControl(
  deps: NoiseControlDeps,
  senders: Record<string, PlatformSender>,
): Record<string, PlatformSender> {
  const wrap = (sender: PlatformSender): PlatformSender => {
    const send = async (
      logId: string,
      target: Target,
      body: unknown,
      unit?: SendLog,
    ): Promise<SendResult> => {
      const log = unit?.id === logId ? unit : await getSendLog(deps.kv, logId);
      const route = log && await routeOf(deps, log);
      if (!log || !route || !hasNoiseOptions(route)) return await sender.send(logId, target, body);
      return await sendWithNoiseControl(deps, sender, route, log, body);
    };
    return new Proxy(sender, {
      get(inner, property) {
        if (property === "send") return send;
        const value = Reflect.get(inner, property);
        return typeof value === "function" ? value.bind(inner) : value;
      },
    });
  };
  return Object.fromEntries(
    Object.entries(senders).map(([platform, sender]) => [platform, wrap(sender)]),
  );
}

/** The queue handler that closes digests when their windows end (`digest_close`). */
export function digestCloseHandler(deps: NoiseDeps): QueueHandler {
  return async (message) => {
    if (!isDigestCloseJob(message)) {
      deps.log.error("malformed digest_close job dropped", { message });
      return;
    }
    await closeDigest(deps, message.digestId);
  };
}
