import { useEffect, useRef } from "preact/hooks";

/**
 * Drives a `<dialog>` as a modal while `open`: `showModal()` (the rest of the page is inert,
 * Esc closes it), focus to the element `initialFocus` selects (else the browser's choice), and
 * back to the element that had it when the dialog closes (call `restoreFocus` from the dialog's
 * `onClose`).
 */
export function useModal(open: boolean, initialFocus = "[data-autofocus]") {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement
        ? document.activeElement
        : null;
      dialog.showModal();
      dialog.querySelector<HTMLElement>(initialFocus)?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);
  const restoreFocus = () => {
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected) back.focus();
  };
  return { ref, restoreFocus };
}
