import type { SendLog } from "../../lib/store/send_logs.ts";
import { eventLabel, formatTime, isoTime, targetLabel } from "./format.ts";
import { StatusBadge } from "./StatusBadge.tsx";
import { LINK, MUTED } from "./ui.ts";

const SHOWN = 10;
const ERROR_CHARS = 140;

/** The newest failed and dead units, each linking to its log. */
export function RecentFailures(props: { logs: SendLog[] }) {
  const logs = props.logs.slice(0, SHOWN);
  if (logs.length === 0) {
    return <p class={`text-sm ${MUTED}`}>No failures recently.</p>;
  }
  return (
    <ul class="divide-y divide-slate-100 dark:divide-slate-800" data-testid="recent-failures">
      {logs.map((log) => (
        <li key={log.id} class="flex flex-col gap-1 py-2.5 sm:flex-row sm:items-start sm:gap-3">
          <span class="flex shrink-0 items-center gap-2">
            <StatusBadge status={log.status} />
            <time datetime={isoTime(log.updatedAt)} class={`text-xs tabular-nums ${MUTED}`}>
              {formatTime(log.updatedAt)}
            </time>
          </span>
          <span class="min-w-0 flex-1 text-sm">
            <a class={`${LINK} font-mono text-xs break-all`} href={`/admin/logs/${log.id}`}>
              {eventLabel(log)}
            </a>{" "}
            <span class={MUTED}>
              {log.groupId} / {log.routeId} → {targetLabel(log.target)}
            </span>
            {log.error !== undefined && (
              <span class="block text-xs break-words text-red-800 dark:text-red-300">
                {log.error.length > ERROR_CHARS
                  ? `${log.error.slice(0, ERROR_CHARS - 1)}…`
                  : log.error}
              </span>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}
