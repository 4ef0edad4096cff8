/**
 * A modal dialog on the native `<dialog>`: opened with `showModal()` (the page behind is
 * inert, focus moves into the dialog to the element marked `autofocus`), closed by Esc or a
 * button, and focus goes back to where it was. Used by islands.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { PANEL } from "./ui.tsx";

/**
 * A modal dialog shown while `open`. Esc calls `onClose` (the owner then sets `open` false);
 * closing gives focus back to the element that had it before.
 */
export function Dialog(
  props: {
    open: boolean;
    title: string;
    onClose: () => void;
    children: ComponentChildren;
    testId?: string;
    role?: "dialog" | "alertdialog";
  },
) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<Element | null>(null);
  const titleId = `dialog-title-${props.testId ?? "x"}`;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      returnTo.current = document.activeElement;
      dialog.showModal();
    } else if (!props.open && dialog.open) {
      dialog.close();
      const target = returnTo.current;
      if (target instanceof HTMLElement && target.isConnected) target.focus();
    }
  }, [props.open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const cancel = (event: Event) => {
      event.preventDefault();
      props.onClose();
    };
    dialog.addEventListener("cancel", cancel);
    return () => dialog.removeEventListener("cancel", cancel);
  }, [props.onClose]);

  return (
    <dialog
      ref={ref}
      role={props.role}
      aria-labelledby={titleId}
      data-testid={props.testId}
      class={`${PANEL} m-auto w-[min(32rem,calc(100vw-2rem))] p-0 backdrop:bg-slate-950/50`}
    >
      {props.open && (
        <div class="p-5">
          <h2 id={titleId} class="text-lg font-semibold">{props.title}</h2>
          {props.children}
        </div>
      )}
    </dialog>
  );
}
