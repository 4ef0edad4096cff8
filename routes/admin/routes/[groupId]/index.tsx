import { ConsoleLayout } from "../../../../components/ConsoleLayout.tsx";
import { LINK, MUTED, PageBody } from "../../../../components/routes/ui.tsx";
import RouteList from "../../../../islands/console/routes/RouteList.tsx";
import { loadGroupRoutesPage } from "../../../../lib/admin/console_routes.ts";
import { readConsoleFrame } from "../../../../lib/admin/console_frame.ts";
import { listGroupProblems } from "../../../../lib/admin/route_problems.ts";
import { RouteProblems } from "../../../../components/problems/RouteProblems.tsx";
import { principalOf } from "../../../../lib/auth/principal.ts";
import { page } from "../../../../lib/fresh/mod.ts";
import { define } from "../../../../lib/state.ts";

/** One group's routes, in order. */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    const [data, frame] = await Promise.all([
      loadGroupRoutesPage(ctx.state.kv, principal, ctx.params.groupId),
      readConsoleFrame(ctx),
    ]);
    const { problems } = await listGroupProblems(
      ctx.state.kv,
      ctx.state.config,
      principal,
      data.group.id,
    );
    return page({ ...data, frame, problems }, { headers: { "cache-control": "no-store" } });
  },
});

/** The route list of a group. */
export default define.page<typeof handler>(function GroupRoutes({ data }) {
  return (
    <ConsoleLayout
      active="/admin/routes"
      title={`Routes of ${data.group.name}`}
      {...data.frame}
      currentGroup={data.group.id}
    >
      <PageBody>
        <nav aria-label="Breadcrumb" class={`-mt-4 mb-4 text-sm ${MUTED}`}>
          <a class={LINK} href="/admin/routes">All groups</a>
          <span aria-hidden="true" class="mx-1">/</span>
          <span aria-current="page">{data.group.name}</span>
        </nav>
        <RouteProblems
          groups={[{ groupId: data.group.id, groupName: data.group.name, problems: data.problems }]}
        />
        <RouteList
          group={data.group}
          routes={data.routes}
          etag={data.etag}
          canEdit={data.canEdit}
        />
      </PageBody>
    </ConsoleLayout>
  );
});
