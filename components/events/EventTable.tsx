import { DayTime } from "../logs/DayTime.tsx";
import type { GroupEvent } from "../../lib/admin/events.ts";
import { breakable } from "../logs/Breakable.tsx";
import { formatTime, isoTime } from "../logs/format.ts";
import { LINK, MUTED, TD, TH } from "../logs/ui.ts";

/** `pull_request.opened`, or the kind alone. */
export function eventName(event: Pick<GroupEvent, "kind" | "action">): string {
  return event.action === undefined ? event.kind : `${event.kind}.${event.action}`;
}

/** The address of an event's page. */
export function eventHref(groupId: string, eventId: string): string {
  return `/admin/events/${encodeURIComponent(groupId)}/${eventId}`;
}

/** The event's title without the `[owner/name]` it starts with (the table shows the repository). */
function shownTitle(event: GroupEvent): string | undefined {
  const prefix = event.repository === undefined ? undefined : `[${event.repository}] `;
  return prefix && event.title?.startsWith(prefix) ? event.title.slice(prefix.length) : event.title;
}

/** How many routes an event fired, as a badge; none is marked, since it is what people look for. */
export function FiredBadge(props: { count: number }) {
  const none = props.count === 0;
  return (
    <span
      data-testid="fired"
      class={`inline-flex shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${
        none
          ? "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100"
          : "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200"
      }`}
    >
      {none ? "no route" : `${props.count} route${props.count === 1 ? "" : "s"}`}
    </span>
  );
}

/**
 * A group's events, newest first: time, event, repository, sender and how many routes fired,
 * each linking (by its title, or its name when it has none) to the page that explains it. On narrow screens the repository and sender move
 * under the event.
 */
export function EventTable(props: { groupId: string; items: readonly GroupEvent[] }) {
  return (
    <table class="w-full table-fixed border-collapse">
      <caption class="sr-only">Events, newest first (UTC)</caption>
      <thead>
        <tr class="border-b border-slate-200 dark:border-slate-800">
          <th scope="col" class={`${TH} hidden w-28 sm:table-cell`}>Received</th>
          <th scope="col" class={TH}>Event</th>
          <th scope="col" class={`${TH} hidden w-48 md:table-cell`}>Repository</th>
          <th scope="col" class={`${TH} hidden w-36 lg:table-cell`}>Sender</th>
          <th scope="col" class={`${TH} w-24 sm:w-28`}>Fired</th>
        </tr>
      </thead>
      <tbody>
        {props.items.map((event) => (
          <tr
            key={event.id}
            data-event-id={event.id}
            class="border-b border-slate-100 last:border-0 dark:border-slate-800"
          >
            <td class={`${TD} hidden whitespace-nowrap tabular-nums sm:table-cell`}>
              <DayTime at={event.receivedAt} />
            </td>
            <td class={`${TD} min-w-0`}>
              {event.title
                ? (
                  <>
                    <a class={`${LINK} break-words`} href={eventHref(props.groupId, event.id)}>
                      {shownTitle(event)}
                    </a>
                    <p class={`mt-0.5 break-words font-mono text-xs ${MUTED}`}>
                      {breakable(eventName(event))}
                    </p>
                  </>
                )
                : (
                  <a
                    class={`${LINK} break-words font-mono text-xs`}
                    href={eventHref(props.groupId, event.id)}
                  >
                    {breakable(eventName(event))}
                  </a>
                )}
              <p class={`mt-0.5 text-xs sm:hidden ${MUTED}`}>
                <time datetime={isoTime(event.receivedAt)}>{formatTime(event.receivedAt)}</time>
              </p>
              <p class={`mt-0.5 truncate text-xs md:hidden ${MUTED}`}>
                {[event.repository, event.sender].filter(Boolean).join(" · ") || event.provider}
              </p>
            </td>
            <td class={`${TD} hidden truncate md:table-cell`} title={event.repository}>
              {event.repository ?? <span class={MUTED}>—</span>}
            </td>
            <td class={`${TD} hidden truncate lg:table-cell`}>
              {event.sender ?? <span class={MUTED}>—</span>}
            </td>
            <td class={TD}>
              <FiredBadge count={event.routesFired} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
