import type { RouteVerdict } from "../../lib/admin/events.ts";
import type { Explanation } from "../../lib/routing/explain.ts";
import { LINK, MUTED } from "../logs/ui.ts";
import { ExplanationTree } from "./ExplanationTree.tsx";
import { PlainSentence } from "./PlainSentence.tsx";

function Badge(props: { fired: boolean }) {
  return (
    <span
      data-testid="route-fired"
      data-fired={String(props.fired)}
      class={`inline-flex shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${
        props.fired
          ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200"
          : "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100"
      }`}
    >
      {props.fired ? "fired" : "did not fire"}
    </span>
  );
}

/** The event leaves of an explanation. */
function eventLeaves(node: Explanation): Extract<Explanation, { kind: "event" }>[] {
  if (node.kind === "event") return [node];
  if (node.kind === "all" || node.kind === "any") return node.children.flatMap(eventLeaves);
  if (node.kind === "not") return eventLeaves(node.child);
  return [];
}

/** Whether a route that did not fire listens only to other kinds of events. */
function listensElsewhere(route: RouteVerdict): boolean {
  if (route.fired || !route.explanation) return false;
  const leaves = eventLeaves(route.explanation);
  return leaves.length > 0 && leaves.every((leaf) => !leaf.matched);
}

/** Up to this many routes, every route is shown with its explanation. */
const FULL_LIST_ROUTES = 20;

function routeHref(groupId: string, routeId: string, eventId: string): string {
  return `/admin/routes/${encodeURIComponent(groupId)}/edit/${
    encodeURIComponent(routeId)
  }?event=${eventId}`;
}

/**
 * Each route of the group judged against the event, in stored order: fired or not, the
 * verdict in words, and the explanation tree (open for the routes that did not fire, which are
 * the ones people come to ask about). In a group of more than 20 routes, those that listen only
 * to other kinds of events are listed last, by name, in a collapsed list: they are rarely the
 * question, and a group may have hundreds.
 */
export function RouteVerdicts(
  props: { groupId: string; eventId: string; routes: readonly RouteVerdict[] },
) {
  if (props.routes.length === 0) {
    return (
      <p class={`text-sm ${MUTED}`}>
        The group has no routes, so the event went nowhere.{" "}
        <a
          class={LINK}
          href={`/admin/routes/${encodeURIComponent(props.groupId)}/new?event=${props.eventId}`}
        >
          Add a route
        </a>
        .
      </p>
    );
  }
  const compact = props.routes.length > FULL_LIST_ROUTES;
  const elsewhere = compact ? props.routes.filter(listensElsewhere) : [];
  const judged = compact ? props.routes.filter((route) => !listensElsewhere(route)) : props.routes;
  return (
    <>
      <ol class="flex flex-col divide-y divide-slate-200 dark:divide-slate-800">
        {judged.map((route) => (
          <li key={route.id} data-route-id={route.id} class="py-3 first:pt-0 last:pb-0">
            <div class="flex flex-wrap items-center gap-2">
              <Badge fired={route.fired} />
              {route.deleted ? <span class="break-all font-medium">{route.name}</span> : (
                <a
                  class={`${LINK} break-all`}
                  href={routeHref(props.groupId, route.id, props.eventId)}
                  title="Edit the route, explained against this event"
                >
                  {route.name}
                </a>
              )}
              {route.fallback && <span class={`text-xs ${MUTED}`}>fallback</span>}
              {!route.enabled && <span class={`text-xs ${MUTED}`}>disabled</span>}
            </div>
            <p class="mt-1 text-sm" data-testid="route-verdict">
              <PlainSentence text={route.verdict} />
            </p>
            {route.error && (
              <p class="mt-1 break-words font-mono text-xs text-red-800 dark:text-red-200">
                {route.error}
              </p>
            )}
            {route.explanation && (
              <details class="mt-2" open={!route.fired}>
                <summary class={`cursor-pointer text-xs font-medium ${MUTED}`}>
                  Why, node by node
                </summary>
                <ul class="mt-2">
                  <ExplanationTree node={route.explanation} />
                </ul>
              </details>
            )}
          </li>
        ))}
      </ol>
      {elsewhere.length > 0 && (
        <details class="mt-4" data-testid="other-events">
          <summary class={`cursor-pointer text-sm font-medium ${MUTED}`}>
            {elsewhere.length} route{elsewhere.length === 1 ? " listens" : "s listen"}{" "}
            only to other events
          </summary>
          <ul class="mt-2 flex flex-col gap-1 text-sm">
            {elsewhere.map((route) => (
              <li key={route.id} data-route-id={route.id}>
                <a
                  class={`${LINK} break-all`}
                  href={routeHref(props.groupId, route.id, props.eventId)}
                >
                  {route.name}
                </a>{" "}
                <span class={MUTED}>
                  ({eventLeaves(route.explanation!).flatMap((leaf) => leaf.wanted).join(", ")})
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
