import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
import { OverviewDashboard } from "../../components/logs/OverviewDashboard.tsx";
import { CARD, MUTED } from "../../components/logs/ui.ts";
import PathTester from "../../islands/PathTester.tsx";
import { loadOverview } from "../../lib/admin/overview_page.ts";
import { requirePrincipal } from "../../lib/auth/access.ts";
import { page } from "../../lib/fresh/mod.ts";
import { define } from "../../lib/state.ts";

const SAMPLE_PAYLOAD = {
  action: "opened",
  pull_request: {
    number: 42,
    title: "Add retry to the delivery worker",
    draft: false,
    labels: [{ name: "bug" }, { name: "backend" }],
    user: { login: "octocat" },
  },
  repository: { full_name: "octo-org/switchyard" },
};

/** Shown instead of the console to a person who signed in but may not use it. */
function ForbiddenNotice() {
  return (
    <section role="alert" class="rounded-lg border border-amber-300 bg-amber-50 p-6">
      <h2 class="text-lg font-semibold text-amber-900">No access to the console</h2>
      <p class="mt-1 text-sm text-amber-800">
        Your GitHub account is not a super admin and is not a member of any group. Ask a group owner
        for an invite, then <a class="font-medium underline" href="/admin/login">sign in again</a>.
      </p>
    </section>
  );
}

/** The overview's delivery numbers (none for the "no access" notice, which needs no sign-in). */
export const handler = define.handlers({
  async GET(ctx) {
    if (ctx.url.searchParams.get("error") === "forbidden") return page({ overview: null });
    const principal = await requirePrincipal(ctx);
    const overview = await loadOverview(ctx.state.kv, principal, ctx.url.searchParams);
    return page({ overview }, {
      status: overview.status,
      headers: { "cache-control": "no-store" },
    });
  },
});

/** The console overview: delivery numbers, then the tools (the JSONPath tester). */
export default define.page<typeof handler>(function Overview({ data }) {
  if (data.overview === null) {
    return (
      <ConsoleLayout active="/admin" title="Overview">
        <ForbiddenNotice />
      </ConsoleLayout>
    );
  }
  return (
    <ConsoleLayout active="/admin" title="Overview">
      <OverviewDashboard data={data.overview} />
      <h2 class="mt-10 mb-4 text-xl font-semibold">Tools</h2>
      <section aria-labelledby="tester-title" class={`${CARD} p-4 sm:p-6`}>
        <h3 id="tester-title" class="text-lg font-semibold">JSONPath tester</h3>
        <p class={`mt-1 text-sm ${MUTED}`}>
          Paste a webhook payload and type a path: the values shown are exactly what a route's field
          filter compares.
        </p>
        <PathTester
          payload={JSON.stringify(SAMPLE_PAYLOAD, null, 2)}
          path="pull_request.labels[*].name"
        />
      </section>
    </ConsoleLayout>
  );
});
