import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
import { CARD, LINK, MUTED } from "../../components/logs/ui.ts";
import { readConsoleFrame } from "../../lib/admin/console_frame.ts";
import { page } from "../../lib/fresh/mod.ts";
import { define } from "../../lib/state.ts";

/** Events: the group chosen in the switcher (or the only one), else a choice of groups. */
export const handler = define.handlers({
  async GET(ctx) {
    const frame = await readConsoleFrame(ctx);
    const only = frame.groups.length === 1 ? frame.groups[0].id : undefined;
    const chosen = frame.currentGroup ?? only;
    if (chosen !== undefined) return ctx.redirect(`/admin/events/${encodeURIComponent(chosen)}`);
    return page({ frame }, { headers: { "cache-control": "no-store" } });
  },
});

/** Events: choose a group. */
export default define.page<typeof handler>(function EventsIndex({ data }) {
  const { groups } = data.frame;
  return (
    <ConsoleLayout active="/admin/events" title="Events" {...data.frame}>
      <section class={`${CARD} p-4 sm:p-5`} aria-labelledby="groups-heading">
        <h2 id="groups-heading" class="text-base font-semibold">Choose a group</h2>
        <p class={`mt-1 text-sm ${MUTED}`}>
          Every event a group received, whether it fired a route or not, and why.
        </p>
        {groups.length === 0
          ? (
            <p class="mt-4 text-sm">
              There is no group yet. <a class={LINK} href="/admin/groups">Create a group</a>{" "}
              first; its events appear here once its webhook receives them.
            </p>
          )
          : (
            <ul class="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
              {groups.map((group) => (
                <li key={group.id} class="py-3">
                  <a
                    class={`${LINK} break-all`}
                    href={`/admin/events/${encodeURIComponent(group.id)}`}
                  >
                    {group.name}
                  </a>
                  <span class={`ml-2 font-mono text-xs ${MUTED}`}>{group.id}</span>
                </li>
              ))}
            </ul>
          )}
      </section>
    </ConsoleLayout>
  );
});
