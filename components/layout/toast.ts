/**
 * Toasts: short result messages in the console's shared `role="status"` region (the layout's
 * Toaster island shows them). Any island calls {@link showToast}; a server-rendered page
 * passes `notice` to ConsoleLayout instead.
 */

/** The event the Toaster listens for on `window`; its `detail` is a {@link Toast}. */
export const TOAST_EVENT = "switchyard:toast";

/** How a toast looks: a success, a failure, or plain information. */
export type ToastTone = "success" | "error" | "info";

/** One message. */
export interface Toast {
  message: string;
  tone?: ToastTone;
}

/** Shows a message in the console's status region (announced by screen readers). */
export function showToast(message: string, tone: ToastTone = "success"): void {
  globalThis.dispatchEvent(new CustomEvent<Toast>(TOAST_EVENT, { detail: { message, tone } }));
}
