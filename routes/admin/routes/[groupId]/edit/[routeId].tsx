import { RouteEditorLayout } from "../../../../../components/routes/RouteEditorLayout.tsx";
import TestEventPanel from "../../../../../islands/console/groups/TestEventPanel.tsx";
import { readRouteEditorPage } from "../../../../../lib/admin/console_routes.ts";
import { sampleChoiceOf, SAMPLES } from "../../../../../lib/console/samples.ts";
import { page } from "../../../../../lib/fresh/mod.ts";
import { define } from "../../../../../lib/state.ts";

/** The editor for one route of a group. */
export const handler = define.handlers({
  async GET(ctx) {
    const data = await readRouteEditorPage(ctx, ctx.params.routeId);
    const justSaved = ctx.url.searchParams.get("saved") === "1";
    const sampleChoice = sampleChoiceOf(ctx.url.searchParams.get("sample"));
    return page({ ...data, justSaved, sampleChoice }, {
      headers: { "cache-control": "no-store" },
    });
  },
});

/** A route of a group. */
export default define.page<typeof handler>(function EditRoute({ data }) {
  const route = data.routes.find((item) => item.id === data.routeId);
  return (
    <RouteEditorLayout
      data={data}
      title={`Route: ${route?.name ?? data.routeId}`}
      justSaved={data.justSaved}
      sampleChoice={data.sampleChoice}
    >
      {data.canEdit && (
        <div class="mt-6">
          <TestEventPanel
            groupId={data.group.id}
            samples={SAMPLES.map(({ id, label }) => ({ id, label }))}
            initialSample={data.sampleChoice !== "pasted"
              ? data.sampleChoice ?? undefined
              : undefined}
            headingId="test-event-title"
            note="It goes through the group's saved routes: save your changes first."
          />
        </div>
      )}
    </RouteEditorLayout>
  );
});
