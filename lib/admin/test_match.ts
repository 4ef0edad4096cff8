/**
 * `POST /admin/api/test-match` (spec payload rule 3): evaluates a filter tree, or a route's
 * flat filter list, against an event in memory and explains the result. Stores nothing.
 */
import { compile, FilterValidationError, routeFilterNode } from "../filter/compile.ts";
import { explain, type Explanation } from "../filter/explain.ts";
import { HttpError } from "../fresh/http_error.ts";
import type { Filter, FilterNode } from "../types.ts";

/** A validated trial request. */
export interface TestMatchInput {
  node?: FilterNode;
  filters?: Filter[];
  event?: string;
  payload: Record<string, unknown>;
}

/** The event kind and action of `kind.action` (a kind without a dot has no action). */
export function splitEvent(event: string): { kind: string; action?: string } {
  const dot = event.indexOf(".");
  return dot < 0 ? { kind: event } : { kind: event.slice(0, dot), action: event.slice(dot + 1) };
}

/** Whether the event matches, and why. `event` defaults to `custom`. */
export function testMatch(input: TestMatchInput): { matched: boolean; explanation: Explanation } {
  const node = routeFilterNode({ ast: input.node, filters: input.filters ?? [] });
  const event = { ...splitEvent(input.event ?? "custom"), payload: input.payload };
  try {
    const matched = compile(node)(event);
    return { matched, explanation: explain(node, event) };
  } catch (error) {
    if (error instanceof FilterValidationError) {
      throw new HttpError(400, `${input.node ? "node" : "filters"}: ${error.message}`);
    }
    throw error;
  }
}
