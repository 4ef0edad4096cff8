import type { SendStatus } from "../../lib/store/delivery/send_logs.ts";

const STYLES: Record<SendStatus, string> = {
  ok: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200",
  failed: "bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200",
  dead: "bg-slate-800 text-white dark:bg-slate-200 dark:text-slate-900",
  retrying: "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100",
};

/** What each status means, for the badge's tooltip. */
export const STATUS_MEANINGS: Record<SendStatus, string> = {
  ok: "the platform accepted the message",
  failed: "the platform refused it, or the platform is not configured",
  dead: "every retry failed",
  retrying: "queued, sending, or waiting for a retry",
};

/** A unit's status as a coloured badge (the word is the badge's text). */
export function StatusBadge(props: { status: SendStatus }) {
  return (
    <span
      data-status={props.status}
      title={STATUS_MEANINGS[props.status]}
      class={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${STYLES[props.status]}`}
    >
      {props.status}
    </span>
  );
}
