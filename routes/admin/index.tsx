import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
import { SetupChecklist } from "../../components/layout/SetupChecklist.tsx";
import type { Toast } from "../../components/layout/toast.ts";
import { CARD, MUTED } from "../../components/layout/ui.ts";
import PathTester from "../../islands/PathTester.tsx";
import { readConsoleFrame, readOverview } from "../../lib/admin/console_frame.ts";
import { OverviewDashboard } from "../../components/logs/OverviewDashboard.tsx";
import { loadOverview, type OverviewData } from "../../lib/admin/overview_page.ts";
import { principalOf } from "../../lib/auth/principal.ts";
import { problemsOfReadableGroups } from "../../lib/admin/route_problems.ts";
import { RouteProblems } from "../../components/problems/RouteProblems.tsx";
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

/** Results of the invite form, by the `invite` parameter it redirects with. */
const INVITE_NOTICES = new Map<string, Toast>([
  ["ok", { message: "You joined the group.", tone: "success" }],
]);

/** Whether the overview's period has no delivery at all (no unit made). */
function nothingSent(overview: OverviewData): boolean {
  const totals = overview.metrics?.totals;
  return overview.error === undefined &&
    (totals === undefined || totals.ok + totals.failed + totals.dead + totals.retrying === 0);
}

/** Shown instead of the console to a person who signed in but may not use it. */
function ForbiddenNotice() {
  return (
    <section
      role="alert"
      class="rounded-lg border border-amber-300 bg-amber-50 p-6 dark:border-amber-700 dark:bg-amber-950"
    >
      <h2 class="text-lg font-semibold text-amber-900 dark:text-amber-100">
        No access to the console
      </h2>
      <p class="mt-1 text-sm text-amber-800 dark:text-amber-200">
        Your GitHub account is not a super admin and is not a member of any group. Ask a group owner
        for an invite, or ask the operator to add you to <code>ADMIN_USER_IDS</code> (as{" "}
        <code>login:&lt;your login&gt;</code>), then{" "}
        <a class="font-medium underline" href="/admin/login">sign in again</a>.
      </p>
    </section>
  );
}

/** The console overview: the first-run checklist, delivery numbers, then the JSONPath tester. */
export const handler = define.handlers({
  async GET(ctx) {
    if (ctx.url.searchParams.get("error") === "forbidden") {
      return page({
        frame: await readConsoleFrame(ctx),
        setup: null,
        forbidden: true,
        overview: null,
        problems: [],
      });
    }
    const [first, overview, problems] = await Promise.all([
      readOverview(ctx),
      loadOverview(ctx.state.kv, principalOf(ctx), ctx.url.searchParams),
      problemsOfReadableGroups(ctx.state.kv, ctx.state.config, principalOf(ctx)),
    ]);
    return page({ ...first, forbidden: false, overview, problems }, {
      status: overview.status,
      headers: { "cache-control": "no-store" },
    });
  },
});

export default define.page<typeof handler>(function Overview({ data, url }) {
  const { frame, setup } = data;
  if (data.forbidden || data.overview === null) {
    return (
      <ConsoleLayout active="/admin" title="Overview" user={frame.user}>
        <ForbiddenNotice />
      </ConsoleLayout>
    );
  }
  const notice = INVITE_NOTICES.get(url.searchParams.get("invite") ?? "");
  return (
    <ConsoleLayout active="/admin" title="Overview" {...frame} notice={notice}>
      <div class="flex flex-col gap-6">
        <RouteProblems groups={data.problems} showGroup />
        {setup && <SetupChecklist progress={setup} />}
        {setup && nothingSent(data.overview)
          ? (
            <p
              class={`rounded-lg border border-dashed border-slate-300 p-6 text-sm dark:border-slate-700 ${MUTED}`}
              data-testid="no-deliveries"
            >
              Delivery numbers, charts and recent failures appear here once the first event is
              delivered.
            </p>
          )
          : <OverviewDashboard data={data.overview} />}
        <h2 class="mt-4 text-xl font-semibold">Tools</h2>
        <section aria-labelledby="tester-title" class={CARD}>
          <h3 id="tester-title" class="text-lg font-semibold">JSONPath tester</h3>
          <p class={`mt-1 text-sm ${MUTED}`}>
            Paste a webhook payload and type a path: the values shown are exactly what a route's
            field filter compares.
          </p>
          <PathTester
            payload={JSON.stringify(SAMPLE_PAYLOAD, null, 2)}
            path="pull_request.labels[*].name"
          />
        </section>
      </div>
    </ConsoleLayout>
  );
});
