import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { DANGER, INPUT, SECONDARY } from "./ui.ts";

/** What a confirmation asks. */
export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  /** The person must type this exactly before the action is allowed (a group id). */
  typeToConfirm?: string;
  busy?: boolean;
  /** Why the action failed, shown in the dialog. */
  error?: string;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * A modal confirmation for a destructive action: focus moves into it (to the text to type,
 * else to Cancel), Esc or Cancel closes it, and focus returns to the control that opened it.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const first = useRef<HTMLInputElement & HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  const [typed, setTyped] = useState("");
  const titleId = useId();
  const inputId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) {
      opener.current = document.activeElement;
      setTyped("");
      element.showModal();
      first.current?.focus();
    } else if (!props.open && element.open) {
      element.close();
    }
  }, [props.open]);

  const onClose = () => {
    if (opener.current instanceof HTMLElement && opener.current.isConnected) {
      opener.current.focus();
    }
    if (props.open) props.onCancel();
  };
  const allowed = !props.busy &&
    (props.typeToConfirm === undefined || typed === props.typeToConfirm);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      class="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <form
        method="dialog"
        class="flex flex-col gap-4 p-5"
        onSubmit={(event) => {
          event.preventDefault();
          if (allowed) props.onConfirm();
        }}
      >
        <h2 id={titleId} class="text-lg font-semibold">{props.title}</h2>
        <div class="text-sm text-slate-700 dark:text-slate-200">{props.children}</div>
        {props.typeToConfirm !== undefined && (
          <div class="flex flex-col gap-1">
            <label for={inputId} class="text-sm font-medium">
              Type <code class="font-mono font-semibold">{props.typeToConfirm}</code> to confirm
            </label>
            <input
              id={inputId}
              ref={first}
              class={INPUT}
              autocomplete="off"
              spellcheck={false}
              value={typed}
              onInput={(event) => setTyped(event.currentTarget.value)}
            />
          </div>
        )}
        {props.error && (
          <p
            role="alert"
            class="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
          >
            {props.error}
          </p>
        )}
        <div class="flex flex-wrap justify-end gap-2">
          <button
            type="button"
            class={SECONDARY}
            ref={props.typeToConfirm === undefined ? first : undefined}
            onClick={() => props.onCancel()}
          >
            Cancel
          </button>
          <button type="submit" class={DANGER} disabled={!allowed}>
            {props.busy ? "Working…" : props.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
