import { AuditFilterForm } from "../../components/logs/AuditFilters.tsx";
import { AuditTable } from "../../components/logs/AuditTable.tsx";
import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
import { EmptyList, FilterError } from "../../components/logs/ListNotes.tsx";
import { Pager } from "../../components/logs/Pager.tsx";
import { CARD, MUTED } from "../../components/logs/ui.ts";
import { loadAuditPage } from "../../lib/admin/audit_page.ts";
import { readConsoleFrame } from "../../lib/admin/console_frame.ts";
import { principalOf } from "../../lib/auth/principal.ts";
import { page } from "../../lib/fresh/mod.ts";
import { define } from "../../lib/state.ts";

/** The audit log: filters (a GET form), one page of entries, and the link to the next page. */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    const data = await loadAuditPage(ctx.state.kv, principal, ctx.url.searchParams);
    return page({ ...data, frame: await readConsoleFrame(ctx) }, {
      status: data.status,
      headers: { "cache-control": "no-store" },
    });
  },
});

/** The console's audit tab. */
export default define.page<typeof handler>(function AuditPage({ data }) {
  const filtered = Object.keys(data.filters).length > 0;
  return (
    <ConsoleLayout active="/admin/audit" title="Audit" {...data.frame}>
      <p class={`mb-4 max-w-3xl text-sm ${MUTED}`}>
        Who changed what: every change to groups, routes, invites, webhooks and allowed targets,
        every redelivery and every sign-in. Newest first; times are UTC.
      </p>
      <section class={`${CARD} mb-6 p-4`}>
        <AuditFilterForm filters={data.filters} groups={data.groups} />
      </section>
      <FilterError message={data.error} />
      {data.error === undefined && data.items.length === 0 && (
        <EmptyList>
          {filtered || data.paged
            ? "No audit entries match these filters."
            : "No audit entries yet."}
        </EmptyList>
      )}
      {data.items.length > 0 && (
        <section class={`${CARD} p-2 sm:p-4`} aria-label="Audit entries">
          <AuditTable items={data.items} />
        </section>
      )}
      <Pager path="/admin/audit" filters={data.filters} next={data.next} paged={data.paged} />
    </ConsoleLayout>
  );
});
