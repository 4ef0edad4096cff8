/**
 * Which validation problems of the filter tree the route editor shows: every problem of a
 * node the route had when it was opened, but a filter added in the editor shows a field's
 * problem only once the person has left that field (or tried to save), so a new, still empty
 * filter is not red before anything was typed. Browser-safe.
 */
import type { NodeIssue, TreeIssues } from "./tree_check.ts";

/** What decides whether a problem is shown. */
export interface ProblemVisibility {
  /** A save was tried: every problem is shown. */
  attempted: boolean;
  /** Nodes added in this editor session (their problems wait for the fields to be left). */
  fresh: ReadonlySet<string>;
  /** Fields left since they were added, as {@link touchedKey} writes them. */
  touched: ReadonlySet<string>;
}

/** Fields whose problems are shown together (the case toggle belongs to the value). */
const FIELD_OF_ISSUE = new Map([
  ["caseSensitive", "value"],
  ["op", "op"],
  ["path", "path"],
  ["type", "*"],
]);

/** The key of a node's field in {@link ProblemVisibility.touched}; `*`: any field. */
function touchedKey(nodeId: string, field: string): string {
  return `${nodeId} ${field}`;
}

/** The keys a field that was left adds: its own, and the node's "any field". */
export function touchedKeys(nodeId: string, field: string): string[] {
  return [touchedKey(nodeId, field), touchedKey(nodeId, "*")];
}

/**
 * The field of a leaf an element of its form edits (`path`, `op`, `value`), from the element's
 * id (`tree_api.ts` `controlId`); null for an element that is not one.
 */
export function fieldOfControl(nodeId: string, elementId: string): string | null {
  if (!elementId.startsWith(`${nodeId}-`)) return null;
  const rest = elementId.slice(nodeId.length + 1);
  if (rest === "path" || rest === "op") return rest;
  if (rest === "value" || /^(event|action)-\d+$/.test(rest)) return "value";
  return null;
}

/** Whether a problem of `nodeId` about `field` (null: the whole leaf) is shown. */
export function isShown(
  visibility: ProblemVisibility,
  nodeId: string,
  field: string | null,
): boolean {
  if (visibility.attempted || !visibility.fresh.has(nodeId)) return true;
  const known = field === null ? "*" : FIELD_OF_ISSUE.get(field) ?? "value";
  return visibility.touched.has(touchedKey(nodeId, known));
}

/** The problems of a node that are shown. */
export function shownIssues(
  visibility: ProblemVisibility,
  nodeId: string,
  issues: readonly NodeIssue[],
): NodeIssue[] {
  return issues.filter((issue) => isShown(visibility, nodeId, issue.field));
}

/** How many of the tree's node problems are not shown yet. */
export function hiddenCount(visibility: ProblemVisibility, issues: TreeIssues): number {
  let hidden = 0;
  for (const [nodeId, list] of issues.byNode) {
    hidden += list.length - shownIssues(visibility, nodeId, list).length;
  }
  return hidden;
}
