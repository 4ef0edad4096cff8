/**
 * `POST /admin/api/test-match` (spec payload rule 3): evaluates a filter tree, or a route's
 * flat filter list, against an event in memory and explains the result. Stores nothing.
 *
 * The event's kind and action come from `eventNameOf`, the function the ingress uses, so a
 * trial decides exactly as live routing does; evaluation spends the same per-event budget,
 * and a tree that cannot be evaluated within it is answered 422 rather than a guess.
 */
import { FilterEvaluationError } from "../jsonpath/budget.ts";
import { compile, FilterValidationError, routeFilterNode } from "../routing/compile.ts";
import { explain, type Explanation } from "../routing/explain.ts";
import { HttpError } from "../fresh/mod.ts";
import { isEventName } from "../providers/adapter.ts";
import { eventNameOf } from "../providers/event_name.ts";
import type { Filter, FilterNode, Provider } from "../types.ts";

/** A validated trial request. */
interface TestMatchInput {
  node?: FilterNode;
  filters?: Filter[];
  event?: string;
  provider?: Provider;
  payload: Record<string, unknown>;
}

/**
 * The kind and action live routing would give the trial's event. `event` plays the sender's
 * event header (default `custom`); `kind.action` names the action instead of the payload's.
 * The sender is `provider`, else custom for `custom` and GitHub for anything else.
 */
export function trialEventName(
  input: Pick<TestMatchInput, "event" | "provider" | "payload">,
): { kind: string; action?: string } {
  const event = input.event ?? "custom";
  const dot = event.indexOf(".");
  const header = dot < 0 ? event : event.slice(0, dot);
  const action = dot < 0 ? undefined : event.slice(dot + 1);
  if (!isEventName(header) || action === "") {
    throw new HttpError(
      400,
      "event: expected kind or kind.action (the kind is 1-64 letters, digits, _ or -)",
    );
  }
  const provider = input.provider ?? (header === "custom" ? "custom" : "github");
  const name = eventNameOf(provider, header, input.payload);
  return action === undefined ? name : { kind: name.kind, action };
}

/** Whether the event matches, and why. */
export function testMatch(input: TestMatchInput): { matched: boolean; explanation: Explanation } {
  const node = routeFilterNode({ ast: input.node, filters: input.filters ?? [] });
  try {
    compile(node);
  } catch (error) {
    if (error instanceof FilterValidationError) {
      throw new HttpError(400, `${input.node ? "node" : "filters"}: ${error.message}`);
    }
    throw error;
  }
  const event = { ...trialEventName(input), payload: input.payload };
  try {
    const explanation = explain(node, event);
    return { matched: explanation.matched, explanation };
  } catch (error) {
    if (error instanceof FilterEvaluationError) {
      throw new HttpError(422, `the filters could not be evaluated: ${error.message}`);
    }
    throw error;
  }
}
