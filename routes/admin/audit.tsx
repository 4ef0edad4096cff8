import { AuditFilterForm } from "../../components/logs/AuditFilters.tsx";
import { AuditTable } from "../../components/logs/AuditTable.tsx";
import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
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
      {data.error !== undefined && (
        <p
          role="alert"
          class="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          {data.error}
        </p>
      )}
      {data.error === undefined && data.items.length === 0 && (
        <p
          class={`rounded-lg border border-dashed border-slate-300 p-6 text-sm dark:border-slate-700 ${MUTED}`}
        >
          {filtered || data.paged
            ? "No audit entries match these filters."
            : "No audit entries yet."}
        </p>
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
