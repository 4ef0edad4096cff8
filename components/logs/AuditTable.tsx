import type { AuditEntry } from "../../lib/store/telemetry/audit.ts";
import { formatTime, isoTime } from "./format.ts";
import { MUTED, TD, TH } from "./ui.ts";

const MAX_DETAIL_CHARS = 200;

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/** A number of seconds in words: `0 seconds`, `90 seconds`, `1 hour`, `3 days`. */
function secondsInWords(seconds: number): string {
  if (seconds > 0 && seconds % 86_400 === 0 && seconds >= 2 * 86_400) {
    return plural(seconds / 86_400, "day");
  }
  if (seconds > 0 && seconds % 3_600 === 0) return plural(seconds / 3_600, "hour");
  if (seconds > 0 && seconds % 60 === 0) return plural(seconds / 60, "minute");
  return plural(seconds, "second");
}

/**
 * One detail as people read it: a time (a key ending in `At`, in Unix milliseconds) as a UTC
 * date, a number of seconds (a key ending in `Seconds`) in words, anything else as it is.
 */
function detailPair(key: string, value: unknown): string {
  if (typeof value === "number" && Number.isFinite(value)) {
    if (/.At$/.test(key)) return `${key.slice(0, -2)}: ${formatTime(value)} UTC`;
    if (/.Seconds$/.test(key)) return `${key.slice(0, -7)}: ${secondsInWords(value)}`;
  }
  return `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`;
}

/** An entry's detail as `key: value` pairs, cut when long. */
function detailText(detail: AuditEntry["detail"]): string {
  if (!detail) return "";
  const text = Object.entries(detail).map(([key, value]) => detailPair(key, value)).join(", ");
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS - 1)}…` : text;
}

/** The audit entries as a table, newest first. */
export function AuditTable(props: { items: AuditEntry[] }) {
  return (
    <div class="overflow-x-auto">
      <table class="w-full divide-y divide-slate-200 dark:divide-slate-800">
        <caption class="sr-only">Audit entries, newest first</caption>
        <thead>
          <tr>
            <th scope="col" class={`${TH} hidden sm:table-cell`}>Time (UTC)</th>
            <th scope="col" class={TH}>Actor</th>
            <th scope="col" class={TH}>Action</th>
            <th scope="col" class={`${TH} hidden md:table-cell`}>Group</th>
          </tr>
        </thead>
        <tbody class="divide-y divide-slate-100 dark:divide-slate-800">
          {props.items.map((entry) => (
            <tr key={entry.id} data-testid="audit-row">
              <td class={`${TD} hidden whitespace-nowrap tabular-nums sm:table-cell`}>
                <time datetime={isoTime(entry.at)}>{formatTime(entry.at)}</time>
              </td>
              <td class={`${TD} break-words`}>
                <span class="font-medium">{entry.actor.login}</span>
                <span class={`block text-xs ${MUTED}`}>id {entry.actor.userId}</span>
              </td>
              <td class={`${TD} min-w-0`}>
                <span class="font-mono text-xs" data-testid="audit-action">{entry.action}</span>
                <time
                  datetime={isoTime(entry.at)}
                  class={`block text-xs tabular-nums sm:hidden ${MUTED}`}
                >
                  {formatTime(entry.at)}
                </time>
                {entry.groupId !== undefined && (
                  <span class={`block text-xs md:hidden ${MUTED}`}>group {entry.groupId}</span>
                )}
                {entry.target !== undefined && (
                  <span class={`block text-xs break-all ${MUTED}`}>{entry.target}</span>
                )}
                {entry.detail !== undefined && (
                  <span class={`block text-xs break-words ${MUTED}`}>
                    {detailText(entry.detail)}
                  </span>
                )}
              </td>
              <td class={`${TD} hidden md:table-cell`}>
                {entry.groupId ?? <span class={MUTED}>–</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
