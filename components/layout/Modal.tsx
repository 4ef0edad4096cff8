import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";

/** What a modal shows and how it closes. */
export interface ModalProps {
  open: boolean;
  title: string;
  /** Called when the person closes it (Esc, the close button, a click on the backdrop). */
  onClose(): void;
  children: ComponentChildren;
  /** A CSS selector for the element to focus on opening (default: the first control). */
  initialFocus?: string;
}

/**
 * A modal `<dialog>` for use inside islands: opened with `showModal()` (the rest of the page
 * is inert), focus moves into it, Esc or a click on the backdrop closes it, and focus returns
 * to the element that had it before.
 */
export function Modal(props: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement
        ? document.activeElement
        : null;
      element.showModal();
      const first = props.initialFocus
        ? element.querySelector<HTMLElement>(props.initialFocus)
        : null;
      first?.focus();
    } else if (!props.open && element.open) {
      element.close();
    }
  }, [props.open]);

  const onClose = () => {
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected) back.focus();
    if (props.open) props.onClose();
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === dialog.current) dialog.current?.close();
      }}
      class="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <div class="p-5">
        <h2 id={titleId} class="text-lg font-semibold">{props.title}</h2>
        {props.children}
      </div>
    </dialog>
  );
}
