import type { GroupRow } from "../../lib/admin/group_pages.ts";
import { BADGE, BADGE_TONES, CARD, CARD_TITLE, MUTED } from "./ui.ts";

/**
 * The groups a person can see: name and id, their role, members, whether the group's webhook
 * is on, and its installation binding. Narrow screens show the last two under the name.
 */
export function GroupTable(props: { rows: GroupRow[] }) {
  return (
    <section class={CARD} aria-labelledby="groups-title">
      <h2 id="groups-title" class={CARD_TITLE}>
        Your groups{" "}
        <span class="font-normal text-slate-600 dark:text-slate-300">({props.rows.length})</span>
      </h2>
      {props.rows.length === 0
        ? <p class={`mt-2 ${MUTED}`}>No groups yet.</p>
        : (
          <table class="mt-4 w-full text-left text-sm" data-testid="groups">
            <thead class="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-700 dark:text-slate-300">
              <tr>
                <th scope="col" class="py-2 pr-3 font-medium">Group</th>
                <th scope="col" class="py-2 pr-3 font-medium">Your role</th>
                <th scope="col" class="hidden py-2 pr-3 font-medium sm:table-cell">Members</th>
                <th scope="col" class="py-2 pr-3 font-medium">Webhook</th>
                <th scope="col" class="hidden py-2 font-medium md:table-cell">Binding</th>
              </tr>
            </thead>
            <tbody class="divide-y divide-slate-200 dark:divide-slate-700">
              {props.rows.map((row) => (
                <tr key={row.id} data-testid={`group-${row.id}`}>
                  <td class="py-3 pr-3 align-top">
                    <a
                      href={`/admin/groups/${encodeURIComponent(row.id)}`}
                      class="font-medium text-indigo-700 break-all hover:underline dark:text-indigo-300"
                    >
                      {row.name}
                    </a>
                    <div class="font-mono text-xs text-slate-600 break-all dark:text-slate-300">
                      {row.id}
                    </div>
                    <div class="text-xs text-slate-600 sm:hidden dark:text-slate-300">
                      {row.members} {row.members === 1 ? "member" : "members"}
                    </div>
                    {row.binding && (
                      <div class="text-xs text-slate-600 md:hidden dark:text-slate-300">
                        {row.binding}
                      </div>
                    )}
                  </td>
                  <td class="py-3 pr-3 align-top">
                    <span class={`${BADGE} ${BADGE_TONES[row.role]}`}>{row.role}</span>
                  </td>
                  <td class="hidden py-3 pr-3 align-top sm:table-cell">{row.members}</td>
                  <td class="py-3 pr-3 align-top">
                    <span class={`${BADGE} ${row.webhook ? BADGE_TONES.on : BADGE_TONES.off}`}>
                      {row.webhook ? "On" : "Off"}
                    </span>
                  </td>
                  <td class="hidden py-3 align-top text-slate-700 md:table-cell dark:text-slate-200">
                    {row.binding ?? "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </section>
  );
}
