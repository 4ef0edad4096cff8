import { ConsoleLayout } from "../../../components/ConsoleLayout.tsx";
import { Badge, LINK, MUTED, PageBody, PANEL } from "../../../components/routes/ui.tsx";
import { readConsoleFrame } from "../../../lib/admin/console_frame.ts";
import { loadRoutesIndex } from "../../../lib/admin/console_routes.ts";
import { principalOf } from "../../../lib/auth/principal.ts";
import { page } from "../../../lib/fresh/mod.ts";
import { define } from "../../../lib/state.ts";

/** The groups whose routes the signed-in person can see; the group chosen, or the only one, opens. */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    const frame = await readConsoleFrame(ctx);
    const only = frame.groups.length === 1 ? frame.groups[0].id : undefined;
    const chosen = frame.currentGroup ?? only;
    if (chosen !== undefined) return ctx.redirect(`/admin/routes/${encodeURIComponent(chosen)}`);
    const groups = await loadRoutesIndex(ctx.state.kv, principal);
    return page({ groups, frame }, { headers: { "cache-control": "no-store" } });
  },
});

/** Routes: choose a group. */
export default define.page<typeof handler>(function RoutesIndex({ data }) {
  return (
    <ConsoleLayout active="/admin/routes" title="Routes" {...data.frame}>
      <PageBody>
        <section class={`${PANEL} p-4 sm:p-5`} aria-labelledby="groups-heading">
          <h2 id="groups-heading" class="text-base font-semibold">Choose a group</h2>
          <p class={`mt-1 text-sm ${MUTED}`}>
            Each group has its own ordered routes: filters that pick events and the chats they go
            to.
          </p>
          {data.groups.length === 0
            ? (
              <p class="mt-4 text-sm" data-testid="no-groups">
                There is no group yet. <a class={LINK} href="/admin/groups">Create a group</a>{" "}
                first, then add its routes here.
              </p>
            )
            : (
              <ul class="mt-4 divide-y divide-slate-200 dark:divide-slate-700">
                {data.groups.map((group) => (
                  <li key={group.id} class="flex flex-wrap items-center justify-between gap-2 py-3">
                    <div class="min-w-0">
                      <a
                        class={`${LINK} break-all`}
                        href={`/admin/routes/${encodeURIComponent(group.id)}`}
                      >
                        {group.name}
                      </a>
                      <span class={`ml-2 font-mono text-xs ${MUTED}`}>{group.id}</span>
                    </div>
                    <div class="flex items-center gap-2 text-sm">
                      <Badge color="gray">
                        {group.routes} route{group.routes === 1 ? "" : "s"}
                      </Badge>
                      {group.routes > 0 && <Badge color="green">{group.enabled} enabled</Badge>}
                      {!group.canEdit && <Badge color="indigo">read only</Badge>}
                    </div>
                  </li>
                ))}
              </ul>
            )}
        </section>
      </PageBody>
    </ConsoleLayout>
  );
});
