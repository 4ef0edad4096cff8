import { ConsoleLayout } from "../../../../components/ConsoleLayout.tsx";
import { PageBody } from "../../../../components/routes/ui.tsx";
import RouteEditor from "../../../../islands/console/routes/RouteEditor.tsx";
import { loadRouteEditorPage } from "../../../../lib/admin/console_routes.ts";
import { readConsoleFrame } from "../../../../lib/admin/console_frame.ts";
import { configuredPlatforms } from "../../../../lib/admin/route_problems.ts";
import { principalOf } from "../../../../lib/auth/principal.ts";
import { page } from "../../../../lib/fresh/mod.ts";
import { define } from "../../../../lib/state.ts";

/** The editor for a new route of a group. */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    const [data, frame] = await Promise.all([
      loadRouteEditorPage(
        ctx.state.kv,
        principal,
        ctx.params.groupId,
        null,
        ctx.url.searchParams.get("event"),
      ),
      readConsoleFrame(ctx),
    ]);
    const platforms = configuredPlatforms(ctx.state.config);
    return page({ ...data, frame, platforms }, { headers: { "cache-control": "no-store" } });
  },
});

/** A new route. */
export default define.page<typeof handler>(function NewRoute({ data }) {
  return (
    <ConsoleLayout
      active="/admin/routes"
      title={`New route in ${data.group.name}`}
      {...data.frame}
      currentGroup={data.group.id}
    >
      <PageBody>
        <RouteEditor
          group={data.group}
          routes={data.routes}
          etag={data.etag}
          routeId={null}
          fragments={data.fragments}
          fragmentsEtag={data.fragmentsEtag}
          canEdit={data.canEdit}
          allowedTargets={data.allowedTargets}
          platforms={data.platforms}
          recentEvents={data.recentEvents}
          sampleEventId={data.sampleEventId}
          justSaved={false}
        />
      </PageBody>
    </ConsoleLayout>
  );
});
