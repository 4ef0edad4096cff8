import { useRef, useState } from "preact/hooks";
import { Modal } from "./Modal.tsx";
import { DANGER_BUTTON, MUTED, PRIMARY_BUTTON, SECONDARY_BUTTON } from "./ui.ts";

/** What a confirmation asks. */
export interface ConfirmRequest {
  /** The question, e.g. "Delete group web?". */
  title: string;
  /** What happens, e.g. "Its routes and webhook secret are removed. This cannot be undone." */
  detail?: string;
  /** The confirming button's label (default "Confirm"). */
  confirmLabel?: string;
  /** `danger` (default) paints the confirming button red. */
  tone?: "danger" | "default";
}

/**
 * A modal confirmation: Cancel has the focus first (Enter does not destroy by accident), Esc
 * cancels, and focus returns to the control that asked. `request` null means closed.
 */
export function ConfirmDialog(
  props: { request: ConfirmRequest | null; onAnswer(confirmed: boolean): void },
) {
  const request = props.request;
  return (
    <Modal
      open={request !== null}
      title={request?.title ?? ""}
      onClose={() => props.onAnswer(false)}
      initialFocus="[data-cancel]"
    >
      {request?.detail && <p class={`mt-2 text-sm ${MUTED}`}>{request.detail}</p>}
      <div class="mt-5 flex flex-wrap justify-end gap-2">
        <button
          type="button"
          data-cancel
          class={SECONDARY_BUTTON}
          onClick={() => props.onAnswer(false)}
        >
          Cancel
        </button>
        <button
          type="button"
          class={request?.tone === "default" ? PRIMARY_BUTTON : DANGER_BUTTON}
          onClick={() => props.onAnswer(true)}
        >
          {request?.confirmLabel ?? "Confirm"}
        </button>
      </div>
    </Modal>
  );
}

/**
 * Confirmation for an island's destructive action:
 *
 * ```tsx
 * const { confirm, dialog } = useConfirm();
 * async function remove() {
 *   if (!(await confirm({ title: `Delete route ${id}?`, confirmLabel: "Delete" }))) return;
 *   ...
 * }
 * return <>{dialog}<button onClick={remove}>Delete</button></>;
 * ```
 */
export function useConfirm() {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const answer = useRef<((confirmed: boolean) => void) | null>(null);
  const confirm = (next: ConfirmRequest) =>
    new Promise<boolean>((resolve) => {
      answer.current?.(false);
      answer.current = resolve;
      setRequest(next);
    });
  const onAnswer = (confirmed: boolean) => {
    const resolve = answer.current;
    answer.current = null;
    setRequest(null);
    resolve?.(confirmed);
  };
  return { confirm, dialog: <ConfirmDialog request={request} onAnswer={onAnswer} /> };
}
