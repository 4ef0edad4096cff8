/**
 * What changed in a group's routes between the version the console read and the one stored
 * now, by route name: shown when a save answers 409. Browser-safe.
 */
import { sameJson } from "../same_json.ts";
import type { Route } from "../types.ts";

/** Routes added, removed and changed (by name), and whether the order changed. */
export interface RouteDiff {
  added: string[];
  removed: string[];
  changed: string[];
  reordered: boolean;
}

/** The differences from `before` to `after` (routes are matched by id). */
export function diffRoutes(before: readonly Route[], after: readonly Route[]): RouteDiff {
  const beforeById = new Map(before.map((route) => [route.id, route]));
  const afterIds = new Set(after.map((route) => route.id));
  const added = after.filter((route) => !beforeById.has(route.id)).map((route) => route.name);
  const removed = before.filter((route) => !afterIds.has(route.id)).map((route) => route.name);
  const changed = after
    .filter((route) => beforeById.has(route.id) && !sameJson(route, beforeById.get(route.id)))
    .map((route) => route.name);
  const kept = (routes: readonly Route[], other: (id: string) => boolean) =>
    routes.filter((route) => other(route.id)).map((route) => route.id).join("\u0000");
  const reordered = kept(before, (id) => afterIds.has(id)) !==
    kept(after, (id) => beforeById.has(id));
  return { added, removed, changed, reordered };
}

/** Whether a diff has nothing in it. */
export function isEmptyDiff(diff: RouteDiff): boolean {
  return diff.added.length + diff.removed.length + diff.changed.length === 0 && !diff.reordered;
}
