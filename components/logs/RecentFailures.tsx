import type { SendLog } from "../../lib/store/delivery/send_logs.ts";
import { eventLabel, formatTime, isoTime, targetLabel } from "./format.ts";
import { StatusBadge } from "./StatusBadge.tsx";
import { LINK, MUTED } from "./ui.ts";

const SHOWN = 10;
const ERROR_CHARS = 140;

/**
 * The newest failed and dead units of the period, each linking to its log, and how many of the
 * period's failures (`total`, the figure the overview's "Failed" shows) they are.
 */
export function RecentFailures(props: { logs: SendLog[]; total: number }) {
  const logs = props.logs.slice(0, SHOWN);
  if (logs.length === 0) {
    return (
      <p class={`text-sm ${MUTED}`} data-testid="recent-failures-count">
        {props.total === 0
          ? "No failures in this period."
          : `${props.total} failure${
            props.total === 1 ? "" : "s"
          } in this period; their logs have expired.`}
      </p>
    );
  }
  return (
    <>
      <p class={`mb-1 text-sm ${MUTED}`} data-testid="recent-failures-count">
        {logs.length === props.total
          ? `${props.total} failure${props.total === 1 ? "" : "s"} in this period.`
          : `The newest ${logs.length} of ${props.total} failures in this period.`}
      </p>
      <RecentList logs={logs} />
    </>
  );
}

function RecentList(props: { logs: SendLog[] }) {
  const { logs } = props;
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
