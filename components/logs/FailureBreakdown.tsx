import type { OutcomeCounts } from "../../lib/store/telemetry/metrics.ts";
import { formatPercent } from "./format.ts";
import { LINK, MUTED, TD, TH } from "./ui.ts";

/** Rows of a breakdown: the names with the most failures first, then the busiest. */
function rowsOf(counts: Record<string, OutcomeCounts>): [string, OutcomeCounts][] {
  return Object.entries(counts)
    .filter(([, c]) => c.total > 0)
    .sort(([a, x], [b, y]) =>
      (y.failed + y.dead) - (x.failed + x.dead) || y.total - x.total || a.localeCompare(b)
    );
}

/**
 * Outcomes by platform or by event kind: delivered, failed and dead counts, the failure share
 * as a bar, and a link to the failed logs of each.
 */
export function FailureBreakdown(props: {
  title: string;
  /** The logs filter each row links to (`platform` or `event`). */
  filter: "platform" | "event";
  counts: Record<string, OutcomeCounts>;
}) {
  const rows = rowsOf(props.counts);
  const headingId = `breakdown-${props.filter}`;
  return (
    <section aria-labelledby={headingId} data-testid={`failures-by-${props.filter}`}>
      <h3 id={headingId} class="mb-2 text-sm font-semibold">{props.title}</h3>
      {rows.length === 0
        ? <p class={`text-sm ${MUTED}`}>Nothing delivered in this period.</p>
        : (
          <div class="overflow-x-auto">
            <table class="w-full text-sm">
              <thead>
                <tr>
                  <th scope="col" class={TH}>
                    {props.filter === "platform" ? "Platform" : "Event"}
                  </th>
                  <th scope="col" class={`${TH} text-right`}>Failed</th>
                  <th scope="col" class={`${TH} text-right`}>Of</th>
                  <th scope="col" class={`${TH} hidden sm:table-cell`}>
                    <span class="sr-only">Failure share</span>
                  </th>
                </tr>
              </thead>
              <tbody class="divide-y divide-slate-100 dark:divide-slate-800">
                {rows.map(([name, counts]) => {
                  const failures = counts.failed + counts.dead;
                  const share = counts.total === 0 ? 0 : failures / counts.total;
                  return (
                    <tr key={name} data-name={name}>
                      <th scope="row" class={`${TD} text-left font-normal break-all`}>
                        {failures > 0
                          ? (
                            <a
                              class={LINK}
                              href={`/admin/logs?${props.filter}=${
                                encodeURIComponent(name)
                              }&status=${counts.dead > counts.failed ? "dead" : "failed"}`}
                            >
                              {name}
                            </a>
                          )
                          : name}
                      </th>
                      <td class={`${TD} text-right tabular-nums`} data-testid="failed-count">
                        {failures}
                      </td>
                      <td class={`${TD} text-right tabular-nums ${MUTED}`}>{counts.total}</td>
                      <td class={`${TD} hidden w-1/3 sm:table-cell`}>
                        <span class="flex items-center gap-2">
                          <span class="h-2 flex-1 rounded-full bg-slate-100 dark:bg-slate-800">
                            <span
                              class="block h-2 rounded-full bg-red-500 dark:bg-red-400"
                              style={{ width: `${Math.round(share * 100)}%` }}
                            />
                          </span>
                          <span class={`w-14 text-right text-xs tabular-nums ${MUTED}`}>
                            {formatPercent(share)}
                          </span>
                        </span>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}
