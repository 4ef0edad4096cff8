import type { ComponentChildren } from "preact";
import { ConsoleLayout } from "../../../../components/ConsoleLayout.tsx";
import { eventName, FiredBadge } from "../../../../components/events/EventTable.tsx";
import { PayloadViewer } from "../../../../components/events/PayloadViewer.tsx";
import { RouteVerdicts } from "../../../../components/events/RouteVerdicts.tsx";
import { EventLogs } from "../../../../components/events/EventLogs.tsx";
import ResendButton from "../../../../islands/console/events/ResendButton.tsx";
import { formatTime, isoTime } from "../../../../components/logs/format.ts";
import { pageHref } from "../../../../components/logs/href.ts";
import { CARD, LINK, MUTED } from "../../../../components/logs/ui.ts";
import { readConsoleFrame } from "../../../../lib/admin/console_frame.ts";
import { loadEventPage } from "../../../../lib/admin/events_page.ts";
import { principalOf } from "../../../../lib/auth/principal.ts";
import { page } from "../../../../lib/fresh/mod.ts";
import { define } from "../../../../lib/state.ts";

/** One event of a group: each route with why it fired or not, its send logs and payload. */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    const { groupId, eventId } = ctx.params;
    const [data, frame] = await Promise.all([
      loadEventPage(ctx.state.kv, principal, groupId, eventId),
      readConsoleFrame(ctx),
    ]);
    return page({ ...data, frame }, { headers: { "cache-control": "no-store" } });
  },
});

function Field(props: { name: string; children: ComponentChildren }) {
  return (
    <div class="min-w-0">
      <dt class={`text-xs font-medium ${MUTED}`}>{props.name}</dt>
      <dd class="mt-0.5 break-words text-sm">{props.children}</dd>
    </div>
  );
}

/** The page of one event. */
export default define.page<typeof handler>(function EventPage({ data }) {
  const { event, group } = data;
  const listHref = `/admin/events/${encodeURIComponent(group.id)}`;
  const fired = event.routesFired;
  return (
    <ConsoleLayout
      active="/admin/events"
      title={`Event ${eventName(event)}`}
      {...data.frame}
      currentGroup={group.id}
    >
      <p class="mb-4 text-sm">
        <a class={LINK} href={listHref}>← Events of {group.name}</a>
      </p>
      {event.title && (
        <p class="mb-4 font-medium break-words" data-testid="event-title">{event.title}</p>
      )}
      <section class={`${CARD} mb-6 p-4 sm:p-5`} aria-labelledby="why-title">
        <h2 id="why-title" class="text-base font-semibold">
          {fired === 0 ? "Why did this event not arrive?" : "Which routes sent it, and why"}
        </h2>
        <p class={`mt-1 mb-4 text-sm ${MUTED}`}>
          Each route of the group, in order: whether it fired when the event arrived, and how its
          filters judge the event now.
        </p>
        <RouteVerdicts groupId={group.id} eventId={event.id} routes={data.routes} />
        {data.canRedeliver && data.payload !== null && (
          <div class="mt-4 border-t border-slate-200 pt-4 dark:border-slate-800">
            <ResendButton groupId={group.id} eventId={event.id} />
            <p class={`mt-2 text-xs ${MUTED}`}>
              The event is accepted again as a new event of this group, judged by the routes as they
              are now, and sent where they say.
            </p>
          </div>
        )}
      </section>
      <section class={`${CARD} mb-6 p-4 sm:p-5`} aria-label="Event">
        <dl class="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
          <Field name="Received (UTC)">
            <time datetime={isoTime(event.receivedAt)}>{formatTime(event.receivedAt)}</time>
          </Field>
          <Field name="Routes fired">
            <FiredBadge count={fired} />
          </Field>
          <Field name="Sender">{event.sender ?? "—"}</Field>
          <Field name="Repository">{event.repository ?? "—"}</Field>
          <Field name="Source">{event.provider}</Field>
          <Field name="Delivery id">
            <code class="break-all text-xs">{event.deliveryId ?? "—"}</code>
          </Field>
          <Field name="Event id">
            <code class="break-all text-xs">{event.id}</code>
          </Field>
        </dl>
      </section>
      <section class={`${CARD} mb-6 p-4 sm:p-5`} aria-labelledby="logs-title">
        <div class="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="logs-title" class="text-base font-semibold">Send logs</h2>
          {data.logs.length > 0 && (
            <a
              class={`${LINK} text-sm`}
              href={pageHref("/admin/logs", { group: group.id, q: event.id })}
            >
              Open in Logs
            </a>
          )}
        </div>
        <EventLogs logs={data.logs} canRedeliver={data.canRedeliver} />
      </section>
      <section class={`${CARD} p-4 sm:p-5`} aria-labelledby="payload-title">
        <h2 id="payload-title" class="mb-3 text-base font-semibold">Payload</h2>
        <PayloadViewer payload={data.payload} />
      </section>
    </ConsoleLayout>
  );
});
