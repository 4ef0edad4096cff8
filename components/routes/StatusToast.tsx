/**
 * The result of an action as a short message in a corner (`role="status"`, announced by
 * screen readers). The region is always rendered, so assistive technology knows it before a
 * message appears.
 */

/** A message and whether it reports a failure. */
export interface Status {
  text: string;
  tone: "ok" | "error" | "info";
}

const TONES = {
  ok:
    "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100",
  error:
    "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100",
  info:
    "border-slate-300 bg-white text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100",
};

/** The status region; shows `status` when set. */
export function StatusToast(props: { status: Status | null; onDismiss: () => void }) {
  const status = props.status;
  return (
    <div
      role="status"
      data-testid="status"
      class="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex justify-end sm:inset-x-auto sm:right-6"
    >
      {status && (
        <div
          data-tone={status.tone}
          class={`pointer-events-auto flex max-w-md items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${
            TONES[status.tone]
          }`}
        >
          <p class="min-w-0 break-words">{status.text}</p>
          <button
            type="button"
            aria-label="Dismiss message"
            class="-my-1 rounded px-1 text-lg leading-none opacity-80 hover:opacity-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
            onClick={props.onDismiss}
          >
            ×
          </button>
        </div>
      )}
    </div>
  );
}
