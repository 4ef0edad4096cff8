import { useState } from "preact/hooks";

/** How a message looks. */
export type ToastTone = "success" | "error" | "info";

interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
}

const TONES: Record<ToastTone, string> = {
  success:
    "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100",
  error:
    "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100",
  info:
    "border-slate-300 bg-white text-slate-900 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100",
};

const SHOWN_MS = 8000;
let nextId = 1;

/** The messages an island shows; successes go away by themselves, errors when dismissed. */
export function useToasts() {
  const [list, setList] = useState<Toast[]>([]);
  const dismiss = (id: number) => setList((shown) => shown.filter((toast) => toast.id !== id));
  const show = (message: string, tone: ToastTone = "success") => {
    const toast = { id: nextId++, message, tone };
    setList((shown) => [...shown.slice(-2), toast]);
    if (tone !== "error") setTimeout(() => dismiss(toast.id), SHOWN_MS);
  };
  return { list, show, dismiss };
}

/** A status region (`role="status"`) showing an island's result messages. */
export function Toasts(props: { toasts: ReturnType<typeof useToasts> }) {
  const { list, dismiss } = props.toasts;
  return (
    <div
      role="status"
      aria-live="polite"
      class="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end"
    >
      {list.map((toast) => (
        <div
          key={toast.id}
          data-tone={toast.tone}
          class={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${
            TONES[toast.tone]
          }`}
        >
          <p class="min-w-0 flex-1 break-words">{toast.message}</p>
          <button
            type="button"
            class="shrink-0 rounded px-1 font-semibold opacity-70 hover:opacity-100"
            aria-label="Dismiss message"
            onClick={() => dismiss(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
