import RedeliverButton from "../../islands/console/logs/RedeliverButton.tsx";
import type { SendLog } from "../../lib/store/delivery/send_logs.ts";
import { breakable } from "../logs/Breakable.tsx";
import { targetLabel } from "../logs/format.ts";
import { StatusBadge } from "../logs/StatusBadge.tsx";
import { LINK, MUTED, TD, TH } from "../logs/ui.ts";

/**
 * The send logs of one event in a group: route, target, status and attempts, each linking to
 * its log page; with a redelivery button when a unit failed and the reader may edit.
 */
export function EventLogs(props: { logs: readonly SendLog[]; canRedeliver: boolean }) {
  if (props.logs.length === 0) {
    return <p class={`text-sm ${MUTED}`}>No messages: no route sent this event.</p>;
  }
  const failed = props.logs.find((log) => log.status === "failed" || log.status === "dead");
  return (
    <>
      <div class="overflow-x-auto">
        <table class="w-full border-collapse">
          <caption class="sr-only">Messages sent for this event</caption>
          <thead>
            <tr class="border-b border-slate-200 dark:border-slate-800">
              <th scope="col" class={TH}>Route</th>
              <th scope="col" class={TH}>Target</th>
              <th scope="col" class={TH}>Status</th>
              <th scope="col" class={`${TH} hidden sm:table-cell`}>Attempts</th>
            </tr>
          </thead>
          <tbody>
            {props.logs.map((log) => (
              <tr
                key={log.id}
                class="border-b border-slate-100 last:border-0 dark:border-slate-800"
              >
                <td class={TD}>
                  <a class={`${LINK} break-words`} href={`/admin/logs/${log.id}`}>
                    {breakable(log.routeId)}
                  </a>
                </td>
                <td class={`${TD} break-all`}>{targetLabel(log.target)}</td>
                <td class={TD}>
                  <StatusBadge status={log.status} />
                  {log.error && <p class={`mt-1 break-words text-xs ${MUTED}`}>{log.error}</p>}
                </td>
                <td class={`${TD} hidden sm:table-cell`}>{log.attempts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {failed && props.canRedeliver && (
        <div class="mt-3">
          <RedeliverButton deliveryId={failed.deliveryId} />
        </div>
      )}
    </>
  );
}
