import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
import PathTester from "../../islands/PathTester.tsx";
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

/** The console overview, with the JSONPath tester. */
export default define.page(function Overview({ url }) {
  if (url.searchParams.get("error") === "forbidden") {
    return (
      <ConsoleLayout active="/admin" title="Overview">
        <ForbiddenNotice />
      </ConsoleLayout>
    );
  }
  return (
    <ConsoleLayout active="/admin" title="Overview">
      <section class="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 class="text-lg font-semibold">JSONPath tester</h2>
        <p class="mt-1 text-sm text-slate-600">
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
