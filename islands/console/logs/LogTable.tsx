import { DayTime } from "../../../components/logs/DayTime.tsx";
import { useEffect, useState } from "preact/hooks";
import { deliveryLogsHref, LogDetail } from "../../../components/logs/LogDetail.tsx";
import { breakable } from "../../../components/logs/Breakable.tsx";
import { StatusBadge } from "../../../components/logs/StatusBadge.tsx";
import { eventLabel, formatTime, isoTime, targetLabel } from "../../../components/logs/format.ts";
import {
  LINK,
  MUTED,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
  TD,
  TH,
} from "../../../components/logs/ui.ts";
import { tryAdminApi } from "../../../components/api/admin_api.ts";
import { redeliverAndReport } from "../../../components/logs/redeliver.ts";
import type { SendLog } from "../../../lib/store/delivery/send_logs.ts";
import { useModal } from "../../../components/layout/use_modal.ts";
import { RedeliverDialog } from "../../../components/logs/RedeliverDialog.tsx";

/** Whether a unit can be sent again by this person: it failed, in a group they edit. */
function canRedeliver(log: SendLog, editable: ReadonlySet<string>): boolean {
  return (log.status === "failed" || log.status === "dead") && editable.has(log.groupId);
}

/** The distinct delivery ids of some units, in their order. */
function deliveriesOf(logs: readonly SendLog[]): string[] {
  return [...new Set(logs.map((log) => log.deliveryId))];
}

/** How long, and how often, the table reads again the messages it sent again. */
const FOLLOW_MS = 30_000;
const FOLLOW_EVERY_MS = 1_000;

/** A send log as the API has it now, or null when it cannot be read. */
async function readLog(id: string): Promise<SendLog | null> {
  const answer = await tryAdminApi("GET /admin/api/logs/{id}", { params: { id } })
    .catch(() => null);
  return answer?.ok ? answer.data as SendLog : null;
}

/**
 * Reads the messages sent again until each has left `retrying` (or for {@link FOLLOW_MS}),
 * handing every fresh copy to `update`, so the table and the open drawer show what came of it.
 */
async function followRequeued(ids: string[], update: (fresh: Map<string, SendLog>) => void) {
  let waiting = ids;
  const until = Date.now() + FOLLOW_MS;
  while (waiting.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
    const fresh = new Map<string, SendLog>();
    for (const log of await Promise.all(waiting.map(readLog))) {
      if (log) fresh.set(log.id, log);
    }
    update(fresh);
    waiting = waiting.filter((id) => fresh.get(id)?.status === "retrying");
  }
}

/**
 * The send logs table. Without JavaScript it is a plain table whose "Details" links open
 * each log's page. Here it adds a detail drawer, and for failed units in groups the person
 * edits: a selection, and redelivery of one delivery or of the selection's deliveries after a
 * confirmation, with the result in a status message; the messages sent again are then read
 * again until they settle, so their rows and the drawer show the outcome.
 */
export default function LogTable(props: { items: SendLog[]; editable: string[] }) {
  const editable = new Set(props.editable);
  const [rows, setRows] = useState(props.items);
  const [hydrated, setHydrated] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [openId, setOpenId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const drawer = useModal(openId !== null);
  useEffect(() => setHydrated(true), []);

  const selectable = rows.filter((log) => canRedeliver(log, editable));
  const chosen = selectable.filter((log) => selected.has(log.id));
  const showSelection = hydrated && selectable.length > 0;
  const open = rows.find((log) => log.id === openId) ?? null;

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const toggleAll = () =>
    setSelected(
      chosen.length === selectable.length ? new Set() : new Set(selectable.map((log) => log.id)),
    );

  const redeliver = async (deliveryIds: string[]) => {
    setBusy(true);
    try {
      const summary = await redeliverAndReport(deliveryIds);
      const requeued = new Set(summary.requeued);
      const now = Date.now();
      setRows((current) =>
        current.map((log) => {
          if (!requeued.has(log.id)) return log;
          const { nextAttemptAt: _due, ...rest } = log;
          return { ...rest, status: "retrying", updatedAt: now };
        })
      );
      setSelected(new Set());
      void followRequeued(
        [...requeued],
        (fresh) => setRows((current) => current.map((log) => fresh.get(log.id) ?? log)),
      );
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  };

  return (
    <div>
      {showSelection && (
        <div class="mb-3 flex flex-wrap items-center gap-3" data-testid="selection-bar">
          <span class={`text-sm ${MUTED}`} aria-live="polite">
            {chosen.length === 0
              ? "Select failed messages to send them again."
              : `${chosen.length} selected (${deliveriesOf(chosen).length} ${
                deliveriesOf(chosen).length === 1 ? "delivery" : "deliveries"
              })`}
          </span>
          <button
            type="button"
            class={PRIMARY_BUTTON}
            disabled={chosen.length === 0 || busy}
            onClick={() =>
              setConfirming(deliveriesOf(chosen))}
          >
            Redeliver selected
          </button>
        </div>
      )}
      <div class="overflow-x-auto">
        <table class="w-full min-w-0 divide-y divide-slate-200 dark:divide-slate-800">
          <caption class="sr-only">Send logs, newest first</caption>
          <thead>
            <tr>
              {showSelection && (
                <th scope="col" class={`${TH} w-8`}>
                  <input
                    type="checkbox"
                    aria-label="Select every failed message on this page"
                    checked={chosen.length > 0 && chosen.length === selectable.length}
                    onChange={toggleAll}
                  />
                </th>
              )}
              <th scope="col" class={`${TH} hidden sm:table-cell`}>Time (UTC)</th>
              <th scope="col" class={TH}>Event</th>
              <th scope="col" class={`${TH} hidden md:table-cell`}>Repository</th>
              <th scope="col" class={`${TH} hidden lg:table-cell`}>Group / route</th>
              <th scope="col" class={`${TH} hidden md:table-cell`}>Target</th>
              <th scope="col" class={TH}>Status</th>
              <th scope="col" class={`${TH} hidden sm:table-cell`}>Attempts</th>
              <th scope="col" class={TH}>
                <span class="sr-only">Details</span>
              </th>
            </tr>
          </thead>
          <tbody class="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.map((log) => (
              <tr
                key={log.id}
                data-testid="log-row"
                data-log-id={log.id}
                class={openId === log.id ? "bg-indigo-50 dark:bg-indigo-950/40" : undefined}
              >
                {showSelection && (
                  <td class={TD}>
                    {canRedeliver(log, editable) && (
                      <input
                        type="checkbox"
                        aria-label={`Select ${eventLabel(log)} to ${targetLabel(log.target)}`}
                        checked={selected.has(log.id)}
                        onChange={() => toggle(log.id)}
                      />
                    )}
                  </td>
                )}
                <td class={`${TD} hidden whitespace-nowrap tabular-nums sm:table-cell`}>
                  <DayTime at={log.createdAt} />
                </td>
                <td class={TD}>
                  <span class="font-mono text-xs">{breakable(eventLabel(log))}</span>
                  <time
                    datetime={isoTime(log.createdAt)}
                    class={`block text-xs tabular-nums sm:hidden ${MUTED}`}
                  >
                    {formatTime(log.createdAt)}
                  </time>
                  {log.repository !== undefined && (
                    <span class={`block text-xs md:hidden ${MUTED}`}>
                      {breakable(log.repository)}
                    </span>
                  )}
                </td>
                <td class={`${TD} hidden md:table-cell`}>
                  {log.repository === undefined
                    ? <span class={MUTED}>–</span>
                    : breakable(log.repository)}
                </td>
                <td class={`${TD} hidden lg:table-cell`}>
                  <span class="block">{log.groupId}</span>
                  <span class={`block text-xs ${MUTED}`}>{log.routeId}</span>
                </td>
                <td class={`${TD} hidden md:table-cell`}>
                  <span class="block">{log.platform === "discord" ? "Discord" : "Telegram"}</span>
                  <span class={`block font-mono text-xs break-all ${MUTED}`}>
                    {targetLabel(log.target).replace(/^\S+ /, "")}
                  </span>
                </td>
                <td class={TD}>
                  <StatusBadge status={log.status} />
                  {log.status !== "ok" && log.error && (
                    <span class={`mt-1 block max-w-64 text-xs ${MUTED}`} data-testid="log-reason">
                      {log.error.length > 160 ? `${log.error.slice(0, 159)}…` : log.error}
                    </span>
                  )}
                </td>
                <td class={`${TD} hidden tabular-nums sm:table-cell`}>{log.attempts}</td>
                <td class={`${TD} text-right`}>
                  <a
                    class={LINK}
                    href={`/admin/logs/${encodeURIComponent(log.id)}`}
                    aria-label={`Details of ${eventLabel(log)} to ${targetLabel(log.target)}`}
                    onClick={(event) => {
                      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) {
                        return;
                      }
                      event.preventDefault();
                      setOpenId(log.id);
                    }}
                  >
                    Details
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <dialog
        ref={drawer.ref}
        aria-labelledby="log-drawer-title"
        data-testid="log-drawer"
        onClose={() => {
          drawer.restoreFocus();
          setOpenId(null);
        }}
        onClick={(event) => {
          if (event.target === drawer.ref.current) drawer.ref.current?.close();
        }}
        class="my-0 mr-0 ml-auto h-dvh max-h-none w-full max-w-lg border-l border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        {open && (
          <div class="flex h-full flex-col">
            <div class="flex items-start justify-between gap-3 border-b border-slate-200 p-4 dark:border-slate-800">
              <div class="min-w-0">
                <h2 id="log-drawer-title" class="text-lg font-semibold break-all">
                  {eventLabel(open)}
                </h2>
                <p class={`text-sm ${MUTED}`}>{targetLabel(open.target)}</p>
              </div>
              <button
                type="button"
                class={SECONDARY_BUTTON}
                data-autofocus
                onClick={() => drawer.ref.current?.close()}
              >
                Close
              </button>
            </div>
            <div class="flex-1 overflow-y-auto p-4">
              <LogDetail log={open} />
            </div>
            <div class="flex flex-wrap gap-2 border-t border-slate-200 p-4 dark:border-slate-800">
              {canRedeliver(open, editable) && (
                <button
                  type="button"
                  class={PRIMARY_BUTTON}
                  disabled={busy}
                  onClick={() => setConfirming([open.deliveryId])}
                >
                  Redeliver
                </button>
              )}
              <a class={SECONDARY_BUTTON} href={deliveryLogsHref(open.deliveryId)}>
                Every message of this delivery
              </a>
              <a class={SECONDARY_BUTTON} href={`/admin/logs/${encodeURIComponent(open.id)}`}>
                Open as a page
              </a>
            </div>
          </div>
        )}
      </dialog>

      <RedeliverDialog
        deliveryIds={confirming}
        busy={busy}
        onConfirm={redeliver}
        onClose={() => setConfirming(null)}
      />
    </div>
  );
}
