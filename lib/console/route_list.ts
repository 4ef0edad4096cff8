/**
 * Edits of a group's ordered route list, as the routes page makes them before saving the
 * whole list: move, duplicate, enable or disable, delete. Each returns a new list.
 * Browser-safe.
 */
import { MAX_NAME_LENGTH } from "../model/route_rules.ts";
import type { Route } from "../types.ts";

/** The list with the route at `from` moved to position `to`. */
export function moveRoute(routes: readonly Route[], from: number, to: number): Route[] {
  const list = [...routes];
  if (from < 0 || from >= list.length) return list;
  const [route] = list.splice(from, 1);
  list.splice(Math.max(0, Math.min(to, list.length)), 0, route);
  return list;
}

/** An id not yet taken, made from `id`: `deploy-copy`, `deploy-copy-2`, … (at most 64). */
export function copyId(id: string, taken: ReadonlySet<string>): string {
  const base = `${id.slice(0, 64 - "-copy-99".length)}-copy`;
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`;
  return candidate;
}

/**
 * The list with a copy of the route at `index` right after it: a new id, "Copy of …" as its
 * name, and disabled, so the copy sends nothing twice until it is changed and enabled.
 */
export function duplicateRoute(routes: readonly Route[], index: number): Route[] {
  const original = routes[index];
  if (!original) return [...routes];
  const taken = new Set(routes.map((route) => route.id));
  const copy: Route = {
    ...structuredClone(original),
    id: copyId(original.id, taken),
    name: `Copy of ${original.name}`.slice(0, MAX_NAME_LENGTH),
    enabled: false,
  };
  return [...routes.slice(0, index + 1), copy, ...routes.slice(index + 1)];
}

/** The list with the route `id` enabled or disabled. */
export function setEnabled(routes: readonly Route[], id: string, enabled: boolean): Route[] {
  return routes.map((route) => route.id === id ? { ...route, enabled } : route);
}

/** The list without the route `id`. */
export function deleteRoute(routes: readonly Route[], id: string): Route[] {
  return routes.filter((route) => route.id !== id);
}

/** The list with `route` in place of the route `replacing` (or added at the end). */
export function putRoute(routes: readonly Route[], route: Route, replacing?: string): Route[] {
  const index = routes.findIndex((item) => item.id === (replacing ?? route.id));
  if (index < 0) return [...routes, route];
  return routes.map((item, position) => position === index ? route : item);
}
