import { useEffect, useState } from "preact/hooks";
import { type Toast, TOAST_EVENT, type ToastTone } from "../../../components/layout/toast.ts";

const SHOWN_AT_MOST = 3;
const SUCCESS_MS = 6000;

interface ShownToast extends Toast {
  id: number;
}

const TONES: Record<ToastTone, string> = {
  success:
    "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100",
  error:
    "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100",
  info:
    "border-slate-300 bg-white text-slate-900 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100",
};

let nextId = 1;

/**
 * The console's shared status region (`role="status"`): shows the page's server notice and
 * every toast an island sends with `showToast()`. Successes go away after a few seconds;
 * errors stay until dismissed.
 */
export default function Toaster(props: { initial?: Toast }) {
  const [toasts, setToasts] = useState<ShownToast[]>(
    props.initial ? [{ ...props.initial, id: 0 }] : [],
  );
  const dismiss = (id: number) => setToasts((shown) => shown.filter((t) => t.id !== id));

  useEffect(() => {
    const onToast = (event: Event) => {
      const detail = (event as CustomEvent<Toast>).detail;
      if (!detail || typeof detail.message !== "string") return;
      const toast = { message: detail.message, tone: detail.tone ?? "success", id: nextId++ };
      setToasts((shown) => [...shown, toast].slice(-SHOWN_AT_MOST));
      if (toast.tone !== "error") setTimeout(() => dismiss(toast.id), SUCCESS_MS);
    };
    addEventListener(TOAST_EVENT, onToast);
    return () => removeEventListener(TOAST_EVENT, onToast);
  }, []);

  return (
    <div
      role="status"
      aria-live="polite"
      class="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end"
    >
      {toasts.map((toast) => (
        <div
          key={toast.id}
          data-tone={toast.tone ?? "success"}
          class={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${
            TONES[toast.tone ?? "success"]
          }`}
        >
          <p class="min-w-0 flex-1 break-words">{toast.message}</p>
          <button
            type="button"
            aria-label="Dismiss message"
            class="-my-1 -mr-2 rounded px-2 py-1 text-base leading-none opacity-70 hover:opacity-100"
            onClick={() => dismiss(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
