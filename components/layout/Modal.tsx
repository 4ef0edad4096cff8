import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";
import { useModal } from "./use_modal.ts";

/** What a modal shows and how it closes. */
export interface ModalProps {
  open: boolean;
  title: string;
  /** Called when the person closes it (Esc, the close button, a click on the backdrop). */
  onClose(): void;
  children: ComponentChildren;
  /** A CSS selector for the element to focus on opening (default: `[data-autofocus]`). */
  initialFocus?: string;
  /** `alertdialog` for a question about a destructive action. */
  role?: "dialog" | "alertdialog";
  /** 32rem wide instead of 28rem (for lists, such as what changed). */
  wide?: boolean;
  testId?: string;
}

/**
 * A modal `<dialog>` for use inside islands: opened with `showModal()` (the rest of the page
 * is inert), focus moves into it, Esc or a click on the backdrop closes it, and focus returns
 * to the element that had it before.
 */
export function Modal(props: ModalProps) {
  const modal = useModal(props.open, props.initialFocus);
  const dialog = modal.ref;
  const titleId = useId();
  const onClose = () => {
    modal.restoreFocus();
    if (props.open) props.onClose();
  };

  return (
    <dialog
      ref={dialog}
      role={props.role}
      aria-labelledby={titleId}
      data-testid={props.testId}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === dialog.current) dialog.current?.close();
      }}
      class={`m-auto w-[calc(100%-2rem)] ${
        props.wide ? "max-w-lg" : "max-w-md"
      } rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100`}
    >
      <div class="p-5">
        <h2 id={titleId} class="text-lg font-semibold">{props.title}</h2>
        {props.children}
      </div>
    </dialog>
  );
}
