import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
import { LogFilterForm } from "../../components/logs/LogFilters.tsx";
import { EmptyList, FilterError } from "../../components/logs/ListNotes.tsx";
import { Pager } from "../../components/logs/Pager.tsx";
import { CARD, MUTED } from "../../components/logs/ui.ts";
import LogTable from "../../islands/console/logs/LogTable.tsx";
import ReplayPanel from "../../islands/console/logs/ReplayPanel.tsx";
import { replayChoices } from "../../lib/admin/replay_choices.ts";
import { loadLogsPage } from "../../lib/admin/logs_page.ts";
import { readConsoleFrame } from "../../lib/admin/console_frame.ts";
import { principalOf } from "../../lib/auth/principal.ts";
import { page } from "../../lib/fresh/mod.ts";
import { define } from "../../lib/state.ts";

/**
 * The send logs: filters (a GET form), one page of logs, the link to the next page, and the
 * bulk replay panel for the groups the caller may edit.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    const [data, replayGroups] = await Promise.all([
      loadLogsPage(ctx.state.kv, principal, ctx.url.searchParams),
      replayChoices(ctx.state.kv, principal),
    ]);
    const replayOpen = ctx.url.searchParams.get("replay") === "open";
    return page({ ...data, replayGroups, replayOpen, frame: await readConsoleFrame(ctx) }, {
      status: data.status,
      headers: { "cache-control": "no-store" },
    });
  },
});

/** The console's send logs tab. */
export default define.page<typeof handler>(function LogsPage({ data }) {
  const filtered = Object.keys(data.filters).length > 0;
  return (
    <ConsoleLayout active="/admin/logs" title="Logs" {...data.frame}>
      <p class={`mb-4 max-w-3xl text-sm ${MUTED}`}>
        One row per message sent: an event, through one route, to one channel or chat. Newest first;
        times are UTC.
      </p>
      <section class={`${CARD} mb-6 p-4`}>
        <LogFilterForm filters={data.filters} groups={data.groups} routes={data.routes} />
      </section>
      {data.replayGroups.length > 0 && (
        <section class={`${CARD} mb-6 p-4`} aria-label="Bulk replay">
          <ReplayPanel
            groups={data.replayGroups}
            open={data.replayOpen}
            start={{
              groupId: data.filters.group,
              routeId: data.filters.route,
              event: data.filters.event,
            }}
          />
        </section>
      )}
      <FilterError message={data.error} />
      {data.error === undefined && data.items.length === 0 && (
        <EmptyList>
          {filtered || data.paged
            ? "No send logs match these filters."
            : "No send logs yet: they appear here once a webhook event matches a route."}
        </EmptyList>
      )}
      {data.items.length > 0 && (
        <section class={`${CARD} p-2 sm:p-4`} aria-label="Send logs">
          <LogTable items={data.items} editable={data.editable} />
        </section>
      )}
      <Pager path="/admin/logs" filters={data.filters} next={data.next} paged={data.paged} />
    </ConsoleLayout>
  );
});
