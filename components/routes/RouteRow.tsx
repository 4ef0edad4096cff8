/**
 * One route in a group's ordered list: position, name (a link to the editor), enabled switch,
 * fallback badge, what it selects in one line, and where it sends. The list island adds the
 * controls (`controls`); without JavaScript the row reads the same, with the switch shown as
 * text.
 */
import type { ComponentChildren } from "preact";
import { describeTarget, summarizeRoute } from "../../lib/console/route_summary.ts";
import type { Route } from "../../lib/types.ts";
import { Badge, LINK, MUTED } from "./ui.tsx";

/** The editor's address for a route. */
export function editorHref(groupId: string, routeId: string): string {
  return `/admin/routes/${encodeURIComponent(groupId)}/edit/${encodeURIComponent(routeId)}`;
}

/** A route's row. */
export function RouteRow(
  props: {
    route: Route;
    position: number;
    groupId: string;
    toggle?: ComponentChildren;
    controls?: ComponentChildren;
    handle?: ComponentChildren;
  },
) {
  const { route } = props;
  return (
    <div class="flex min-w-0 items-start gap-2 p-3 sm:gap-3 sm:p-4">
      {props.handle}
      <span
        class={`mt-0.5 w-6 shrink-0 text-right font-mono text-xs ${MUTED}`}
        aria-label={`Position ${props.position}`}
      >
        {props.position}
      </span>
      <div class="min-w-0 flex-1">
        <div class="flex flex-wrap items-center gap-2">
          <a
            href={editorHref(props.groupId, route.id)}
            class={`${LINK} break-all`}
            data-testid="route-name"
          >
            {route.name}
          </a>
          {route.fallback === true && <Badge color="amber">Fallback</Badge>}
          {!props.toggle && (
            <Badge color={route.enabled ? "green" : "gray"}>
              {route.enabled ? "Enabled" : "Disabled"}
            </Badge>
          )}
          {props.toggle && !route.enabled && <Badge color="gray">Disabled</Badge>}
        </div>
        <p
          class="mt-1 break-words font-mono text-xs text-slate-800 dark:text-slate-200"
          data-testid="route-summary"
        >
          {summarizeRoute(route)}
        </p>
        <p class={`mt-1 break-words text-xs ${MUTED}`}>
          <span class="sr-only">Sends to:</span>
          {route.targets.map(describeTarget).join(" · ")}
        </p>
      </div>
      <div class="flex shrink-0 flex-col items-end gap-2 sm:flex-row sm:items-center">
        {props.toggle}
        {props.controls}
      </div>
    </div>
  );
}
