import { RouteEditorLayout } from "../../../../components/routes/RouteEditorLayout.tsx";
import { readRouteEditorPage } from "../../../../lib/admin/console_routes.ts";
import { page } from "../../../../lib/fresh/mod.ts";
import { define } from "../../../../lib/state.ts";

/** The editor for a new route of a group. */
export const handler = define.handlers({
  async GET(ctx) {
    const data = await readRouteEditorPage(ctx, null);
    return page(data, { headers: { "cache-control": "no-store" } });
  },
});

/** A new route. */
export default define.page<typeof handler>(function NewRoute({ data }) {
  return (
    <RouteEditorLayout data={data} title={`New route in ${data.group.name}`} justSaved={false} />
  );
});
