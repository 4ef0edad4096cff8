import { ConsoleLayout } from "../../../../../components/ConsoleLayout.tsx";
import { PageBody } from "../../../../../components/routes/ui.tsx";
import TestEventPanel from "../../../../../islands/console/groups/TestEventPanel.tsx";
import RouteEditor from "../../../../../islands/console/routes/RouteEditor.tsx";
import { loadRouteEditorPage } from "../../../../../lib/admin/console_routes.ts";
import { readConsoleFrame } from "../../../../../lib/admin/console_frame.ts";
import { configuredPlatforms } from "../../../../../lib/admin/route_problems.ts";
import { sampleChoiceOf, SAMPLES } from "../../../../../lib/console/samples.ts";
import { principalOf } from "../../../../../lib/auth/principal.ts";
import { page } from "../../../../../lib/fresh/mod.ts";
import { define } from "../../../../../lib/state.ts";

/** The editor for one route of a group. */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    const { groupId, routeId } = ctx.params;
    const [data, frame] = await Promise.all([
      loadRouteEditorPage(
        ctx.state.kv,
        principal,
        groupId,
        routeId,
        ctx.url.searchParams.get("event"),
      ),
      readConsoleFrame(ctx),
    ]);
    const justSaved = ctx.url.searchParams.get("saved") === "1";
    const sampleChoice = sampleChoiceOf(ctx.url.searchParams.get("sample"));
    const platforms = configuredPlatforms(ctx.state.config);
    return page({ ...data, justSaved, sampleChoice, frame, platforms }, {
      headers: { "cache-control": "no-store" },
    });
  },
});

/** A route of a group. */
export default define.page<typeof handler>(function EditRoute({ data }) {
  const route = data.routes.find((item) => item.id === data.routeId);
  return (
    <ConsoleLayout
      active="/admin/routes"
      title={`Route: ${route?.name ?? data.routeId}`}
      {...data.frame}
      currentGroup={data.group.id}
    >
      <PageBody>
        <RouteEditor
          group={data.group}
          routes={data.routes}
          etag={data.etag}
          routeId={data.routeId}
          fragments={data.fragments}
          fragmentsEtag={data.fragmentsEtag}
          canEdit={data.canEdit}
          allowedTargets={data.allowedTargets}
          platforms={data.platforms}
          recentEvents={data.recentEvents}
          sampleEventId={data.sampleEventId}
          sampleChoice={data.sampleChoice}
          justSaved={data.justSaved}
        />
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
      </PageBody>
    </ConsoleLayout>
  );
});
