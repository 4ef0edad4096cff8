/**
 * The instance's routes, replaced all at once. A replacement writes a new "route set" aside
 * (`["route_sets", setId, index]`, one route per value), then switches the pointer
 * `["routes_pointer"]` to it in one atomic operation checked against the pointer's
 * versionstamp, then deletes the old set. Readers go through the pointer, so they always see
 * one whole set, in stored order.
 */
import type { AtomicCheck, AtomicOperation, Kv } from "../backend/types.ts";
import { decodeUlidTime, ulid } from "../../ulid.ts";
import { MAX_ROUTE_BYTES, MAX_ROUTES } from "../../limits.ts";
import type { Route } from "../../types.ts";
import { addAuditEntry, type AuditEntry, currentInternalIds } from "../telemetry/audit.ts";
import { upgradeEarlierRoute } from "./route_upgrade.ts";
import {
  routeSetEntryKey,
  routeSetPendingKey,
  routeSetPrefix,
  routeSetsPendingPrefix,
  routesPointerKey,
} from "../keys.ts";

/** The value at `["routes_pointer"]`. */
export interface RoutesPointer {
  setId: string;
  count: number;
  /** Unix milliseconds. */
  updatedAt: number;
}

/** Routes as read, with the pointer's versionstamp (null when none were ever stored). */
interface StoredRoutes {
  routes: Route[];
  versionstamp: string | null;
}

/** Outcome of a replacement; `conflict` means the routes changed since they were read (409). */
export type ReplaceRoutesResult =
  | { ok: true; versionstamp: string; count: number }
  | { ok: false; reason: "conflict" }
  | { ok: false; reason: "too_large"; routeId: string }
  | { ok: false; reason: "too_many"; limit: number };

/** Options of a replacement. */
interface ReplaceOptions {
  /** Audit entries committed in the same atomic operation as the switch. */
  audits?: readonly AuditEntry[];
  /** More checks the switch must pass (a conflict otherwise). */
  checks?: readonly AtomicCheck[];
  /** Adds more writes to the switch's atomic operation (they happen with it or not at all). */
  alongside?: (op: AtomicOperation) => void;
}

/** A set still pending after this long was left by a crashed replacement. */
export const ORPHAN_SET_AGE_MS = 10 * 60 * 1000;

const WRITE_BATCH_ROUTES = 100;
const WRITE_BATCH_BYTES = 400_000;
const ATTEMPTS = 10;

const encoder = new TextEncoder();

/**
 * The last route set each store's pointer named, as read. A set is written whole under a new id
 * before the pointer names it and never changes after, so a pointer naming the same set id
 * needs no second read of its routes. They are frozen: a caller that wants to change a route
 * builds a new one (as every writer here does).
 */
const setsRead = new WeakMap<Kv, { setId: string; routes: readonly Route[] }>();

/** `value` and everything it holds, frozen. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}

/** Reads the current routes through the pointer: one whole set, in stored order. */
export async function getRoutes(kv: Kv): Promise<StoredRoutes> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const pointer = await kv.get<RoutesPointer>(routesPointerKey());
    if (pointer.value === null) return { routes: [], versionstamp: pointer.versionstamp };
    const { setId, count } = pointer.value;
    const known = setsRead.get(kv);
    if (known?.setId === setId) {
      return { routes: [...known.routes], versionstamp: pointer.versionstamp };
    }
    const routes: Route[] = [];
    for await (const entry of kv.list<Route>({ prefix: routeSetPrefix(setId) })) {
      routes.push(upgradeEarlierRoute(entry.value));
    }
    if (routes.length === count) {
      setsRead.set(kv, { setId, routes: routes.map(deepFreeze) });
      return { routes: [...routes], versionstamp: pointer.versionstamp };
    }
  }
  throw new Error("routes kept changing while being read");
}

/** One group's routes, in stored order, with the versionstamp of the whole set. */
export async function getGroupRoutes(kv: Kv, groupId: string): Promise<StoredRoutes> {
  const stored = await getRoutes(kv);
  return { ...stored, routes: stored.routes.filter((route) => route.groupId === groupId) };
}

async function writeSet(kv: Kv, setId: string, routes: readonly Route[]): Promise<void> {
  let op = kv.atomic().set(routeSetPendingKey(setId), Date.now());
  let batchRoutes = 0;
  let batchBytes = 0;
  for (const [index, route] of routes.entries()) {
    const bytes = encoder.encode(JSON.stringify(route)).length;
    if (batchRoutes === WRITE_BATCH_ROUTES || batchBytes + bytes > WRITE_BATCH_BYTES) {
      await commitOrThrow(op);
      op = kv.atomic();
      batchRoutes = 0;
      batchBytes = 0;
    }
    op.set(routeSetEntryKey(setId, index), route);
    batchRoutes++;
    batchBytes += bytes;
  }
  await commitOrThrow(op);
}

async function commitOrThrow(op: AtomicOperation): Promise<void> {
  const result = await op.commit();
  if (!result.ok) throw new Error("writing a route set failed");
}

async function deleteSet(kv: Kv, setId: string): Promise<void> {
  let op = kv.atomic().delete(routeSetPendingKey(setId));
  let batch = 1;
  for await (const entry of kv.list({ prefix: routeSetPrefix(setId) })) {
    if (batch === WRITE_BATCH_ROUTES) {
      await commitOrThrow(op);
      op = kv.atomic();
      batch = 0;
    }
    op.delete(entry.key);
    batch++;
  }
  await commitOrThrow(op);
}

/** Deletes route sets left pending by replacements that crashed before switching. */
export async function sweepOrphanRouteSets(kv: Kv, now = Date.now()): Promise<number> {
  let swept = 0;
  for await (const entry of kv.list({ prefix: routeSetsPendingPrefix() })) {
    const setId = String(entry.key[1]);
    if (now - decodeUlidTime(setId) > ORPHAN_SET_AGE_MS) {
      await deleteSet(kv, setId);
      swept++;
    }
  }
  return swept;
}

function refusal(routes: readonly Route[]): ReplaceRoutesResult | null {
  if (routes.length > MAX_ROUTES) return { ok: false, reason: "too_many", limit: MAX_ROUTES };
  const tooLarge = routes.find((route) =>
    encoder.encode(JSON.stringify(route)).length > MAX_ROUTE_BYTES
  );
  return tooLarge ? { ok: false, reason: "too_large", routeId: tooLarge.id } : null;
}

/**
 * Replaces every route. With `expectedVersionstamp` (a versionstamp from `getRoutes`, or null
 * for "nothing stored yet") the replacement happens only if the routes did not change since;
 * otherwise the result is a conflict. Without it, the last writer wins.
 */
export async function replaceRoutes(
  kv: Kv,
  routes: readonly Route[],
  expectedVersionstamp?: string | null,
  options: ReplaceOptions = {},
): Promise<ReplaceRoutesResult> {
  const refused = refusal(routes);
  if (refused) return refused;
  const setId = ulid();
  await writeSet(kv, setId, routes);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await kv.get<RoutesPointer>(routesPointerKey());
    const expected = expectedVersionstamp === undefined
      ? current.versionstamp
      : expectedVersionstamp;
    if (current.versionstamp !== expected) break;
    const pointer: RoutesPointer = { setId, count: routes.length, updatedAt: Date.now() };
    const op = kv.atomic()
      .check({ key: routesPointerKey(), versionstamp: expected }, ...options.checks ?? [])
      .set(routesPointerKey(), pointer)
      .delete(routeSetPendingKey(setId));
    const audits = options.audits ?? [];
    const internalIds = audits.length > 0 ? await currentInternalIds(kv) : new Map();
    for (const audit of audits) addAuditEntry(op, audit, internalIds);
    options.alongside?.(op);
    const result = await op.commit();
    if (result.ok) {
      if (current.value) await deleteSet(kv, current.value.setId);
      await sweepOrphanRouteSets(kv);
      return { ok: true, versionstamp: result.versionstamp, count: routes.length };
    }
    if (expectedVersionstamp !== undefined) break;
  }
  await deleteSet(kv, setId);
  return { ok: false, reason: "conflict" };
}

/** The full list with one group's routes replaced, keeping the position the group had. */
function withGroupRoutes(all: readonly Route[], groupId: string, routes: readonly Route[]) {
  const first = all.findIndex((route) => route.groupId === groupId);
  const others = all.filter((route) => route.groupId !== groupId);
  const position = first < 0
    ? others.length
    : all.slice(0, first).filter((route) => route.groupId !== groupId).length;
  return [...others.slice(0, position), ...routes, ...others.slice(position)];
}

/**
 * Replaces one group's routes within the set, keeping other groups' routes and the group's
 * place in the stored order. Every route must belong to the group (TypeError otherwise).
 * `expectedVersionstamp` works as in `replaceRoutes`.
 */
export async function replaceGroupRoutes(
  kv: Kv,
  groupId: string,
  routes: readonly Route[],
  expectedVersionstamp?: string | null,
  options: ReplaceOptions = {},
): Promise<ReplaceRoutesResult> {
  const stranger = routes.find((route) => route.groupId !== groupId);
  if (stranger) {
    throw new TypeError(
      `route ${stranger.id} belongs to group ${stranger.groupId}, not ${groupId}`,
    );
  }
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await getRoutes(kv);
    if (expectedVersionstamp !== undefined && current.versionstamp !== expectedVersionstamp) {
      return { ok: false, reason: "conflict" };
    }
    const merged = withGroupRoutes(current.routes, groupId, routes);
    const result = await replaceRoutes(kv, merged, current.versionstamp, options);
    if (result.ok || result.reason !== "conflict" || expectedVersionstamp !== undefined) {
      return result;
    }
  }
  return { ok: false, reason: "conflict" };
}

/** The route pointer's versionstamp: it changes with every replacement (null before the first). */
export async function routesVersion(kv: Kv): Promise<string | null> {
  return (await kv.get(routesPointerKey())).versionstamp;
}

/**
 * The route pointer's versionstamp as KV's watch reports it: once at the start, then after
 * changes. Cancelling the stream stops the watch.
 */
export function watchRoutesVersion(kv: Kv): ReadableStream<string | null> {
  const changes = kv.watch([routesPointerKey()]).getReader();
  return new ReadableStream({
    async pull(controller) {
      const next = await changes.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value[0].versionstamp);
    },
    cancel(reason) {
      return changes.cancel(reason);
    },
  });
}
