/**
 * Compiled routes for the delivery worker: loaded and compiled once, recompiled when the
 * route pointer changes. A change is seen through KV's watch (instant within a process and on
 * Deno Deploy) and through a light poll of the pointer's versionstamp, because the embedded
 * SQLite store does not notify other processes; either way every instance sees a saved
 * change within a second.
 */
import type { Kv } from "../store/backend/types.ts";
import { type CompiledRoute, compileRoutes } from "../routing/select.ts";
import { getRoutes, routesVersion, watchRoutesVersion } from "../store/config/routes.ts";

/** The compiled routes of one stored set. */
export interface CompiledRouteSet {
  routes: CompiledRoute[];
  versionstamp: string | null;
}

/** A live cache of compiled routes. */
export interface RouteCache {
  /** The compiled routes of the current set (loaded on first use). */
  current(): Promise<CompiledRouteSet>;
  /** Stops watching and polling. */
  close(): void;
}

/** Options of the route cache. */
interface RouteCacheOptions {
  /** How often the pointer's versionstamp is polled, in milliseconds (default 500). */
  pollIntervalMs?: number;
}

const WATCH_RETRY_MS = 1000;

/** Starts a route cache on `kv`; call `close()` when the worker stops. */
export function createRouteCache(kv: Kv, options: RouteCacheOptions = {}): RouteCache {
  let closed = false;
  let loading: Promise<CompiledRouteSet> | null = null;
  let seenVersionstamp: string | null | undefined;
  let watchReader: ReadableStreamDefaultReader<string | null> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  function load(): Promise<CompiledRouteSet> {
    const attempt = getRoutes(kv).then((stored) => ({
      routes: compileRoutes(stored.routes),
      versionstamp: stored.versionstamp,
    }));
    loading = attempt;
    attempt.catch(() => {
      if (loading === attempt) {
        loading = null;
        seenVersionstamp = undefined;
      }
    });
    return attempt;
  }

  function pointerSeen(versionstamp: string | null) {
    if (closed || (loading && versionstamp === seenVersionstamp)) return;
    seenVersionstamp = versionstamp;
    load();
  }

  async function current(): Promise<CompiledRouteSet> {
    if (!loading) pointerSeen(await routesVersion(kv));
    return loading ?? load();
  }

  async function watch() {
    while (!closed) {
      try {
        watchReader = watchRoutesVersion(kv).getReader();
        while (!closed) {
          const next = await watchReader.read();
          if (next.done) break;
          pointerSeen(next.value);
        }
      } catch {
        // The watch stream failed; the poll keeps the cache fresh until it is reopened.
      }
      if (!closed) await new Promise((resolve) => retryTimer = setTimeout(resolve, WATCH_RETRY_MS));
    }
  }

  const pollTimer = setInterval(async () => {
    try {
      pointerSeen(await routesVersion(kv));
    } catch {
      // A failed poll is retried at the next tick.
    }
  }, options.pollIntervalMs ?? 500);
  watch();

  return {
    current,
    close() {
      closed = true;
      clearInterval(pollTimer);
      clearTimeout(retryTimer);
      watchReader?.cancel().catch(() => {});
    },
  };
}
