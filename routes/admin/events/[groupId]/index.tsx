import { ConsoleLayout } from "../../../../components/ConsoleLayout.tsx";
import { EventFilterForm } from "../../../../components/events/EventFilters.tsx";
import { EventTable } from "../../../../components/events/EventTable.tsx";
import { SearchReachNote } from "../../../../components/events/SearchReach.tsx";
import { EmptyList, FilterError } from "../../../../components/logs/ListNotes.tsx";
import { Pager } from "../../../../components/logs/Pager.tsx";
import { CARD, LINK, MUTED } from "../../../../components/logs/ui.ts";
import { readConsoleFrame } from "../../../../lib/admin/console_frame.ts";
import { loadEventsPage, searchPhrases } from "../../../../lib/admin/events_page.ts";
import { principalOf } from "../../../../lib/auth/principal.ts";
import { page } from "../../../../lib/fresh/mod.ts";
import { define } from "../../../../lib/state.ts";

/** A group's events: the search (a GET form), one page, and the link to the next page. */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    const [data, frame] = await Promise.all([
      loadEventsPage(ctx.state.kv, principal, ctx.params.groupId, ctx.url.searchParams),
      readConsoleFrame(ctx),
    ]);
    return page({ ...data, frame }, {
      status: data.status,
      headers: { "cache-control": "no-store" },
    });
  },
});

/** The events of a group. */
export default define.page<typeof handler>(function GroupEvents({ data }) {
  const { group, reach } = data;
  const phrases = searchPhrases(data.filters);
  const path = `/admin/events/${encodeURIComponent(group.id)}`;
  return (
    <ConsoleLayout
      active="/admin/events"
      title={`Events of ${group.name}`}
      {...data.frame}
      currentGroup={group.id}
    >
      <p class={`mb-4 max-w-3xl text-sm ${MUTED}`}>
        Every event this group's webhook received within retention, newest first, with how many
        routes it fired. Search them, and open one to see why each route did or did not fire. Times
        are UTC. To send many of them again,{" "}
        <a class={LINK} href={`/admin/logs?group=${encodeURIComponent(group.id)}&replay=open`}>
          replay them from the logs
        </a>.
      </p>
      <section class={`${CARD} mb-6 p-4`}>
        <EventFilterForm groupId={group.id} filters={data.filters} />
      </section>
      <FilterError message={data.error} />
      {reach !== undefined && phrases.length > 0 && (
        <SearchReachNote reach={reach} path={path} filters={data.filters} next={data.next} />
      )}
      {data.error === undefined && data.items.length === 0 && (
        <EmptyList testId="no-events">
          {phrases.length > 0
            ? `No events with ${phrases.join(", ")}${
              reach?.partial ? " in the events looked at so far" : ""
            }.`
            : data.paged
            ? "No more events."
            : (
              <>
                No events yet. Point a webhook at this group (its address and secret are on the{" "}
                <a class={LINK} href={`/admin/groups/${encodeURIComponent(group.id)}`}>
                  group page
                </a>
                ) and send a test event.
              </>
            )}
        </EmptyList>
      )}
      {data.items.length > 0 && (
        <section class={`${CARD} p-2 sm:p-4`} aria-label="Events">
          <EventTable groupId={group.id} items={data.items} />
        </section>
      )}
      <Pager
        path={path}
        filters={data.filters}
        next={reach?.partial ? undefined : data.next}
        paged={data.paged}
      />
    </ConsoleLayout>
  );
});
