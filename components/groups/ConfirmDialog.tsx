import type { ComponentChildren } from "preact";
import { useEffect, useId, useState } from "preact/hooks";
import { Modal } from "../layout/Modal.tsx";
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
 * A modal confirmation for a destructive action (on the console's `Modal`): focus moves into
 * it (to the text to type, else to Cancel), Esc or Cancel closes it, and focus returns to the
 * control that opened it.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const [typed, setTyped] = useState("");
  const inputId = useId();
  useEffect(() => {
    if (props.open) setTyped("");
  }, [props.open]);
  const allowed = !props.busy &&
    (props.typeToConfirm === undefined || typed === props.typeToConfirm);

  return (
    <Modal
      open={props.open}
      title={props.title}
      onClose={() => props.onCancel()}
      initialFocus="[data-first]"
    >
      <form
        method="dialog"
        class="mt-4 flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (allowed) props.onConfirm();
        }}
      >
        <div class="text-sm text-slate-700 dark:text-slate-200">{props.children}</div>
        {props.typeToConfirm !== undefined && (
          <div class="flex flex-col gap-1">
            <label for={inputId} class="text-sm font-medium">
              Type <code class="font-mono font-semibold">{props.typeToConfirm}</code> to confirm
            </label>
            <input
              id={inputId}
              data-first
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
            data-first={props.typeToConfirm === undefined ? true : undefined}
            onClick={() => props.onCancel()}
          >
            Cancel
          </button>
          <button type="submit" class={DANGER} disabled={!allowed}>
            {props.busy ? "Working…" : props.confirmLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
