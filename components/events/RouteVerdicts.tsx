import type { RouteVerdict } from "../../lib/admin/events.ts";
import { LINK, MUTED } from "../logs/ui.ts";
import { ExplanationTree } from "./ExplanationTree.tsx";

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

/**
 * Each route of the group judged against the event, in stored order: fired or not, the
 * verdict in words, and the explanation tree (open for the routes that did not fire, which are
 * the ones people come to ask about).
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
  return (
    <ol class="flex flex-col divide-y divide-slate-200 dark:divide-slate-800">
      {props.routes.map((route) => (
        <li key={route.id} data-route-id={route.id} class="py-3 first:pt-0 last:pb-0">
          <div class="flex flex-wrap items-center gap-2">
            <Badge fired={route.fired} />
            <a
              class={`${LINK} break-all`}
              href={`/admin/routes/${encodeURIComponent(props.groupId)}/edit/${
                encodeURIComponent(route.id)
              }?event=${props.eventId}`}
              title="Edit the route, explained against this event"
            >
              {route.name}
            </a>
            {route.fallback && <span class={`text-xs ${MUTED}`}>fallback</span>}
            {!route.enabled && <span class={`text-xs ${MUTED}`}>disabled</span>}
          </div>
          <p class="mt-1 text-sm" data-testid="route-verdict">{route.verdict}</p>
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
  );
}
