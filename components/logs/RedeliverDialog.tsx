import { useModal } from "../layout/use_modal.ts";
import { MUTED, PRIMARY_BUTTON, SECONDARY_BUTTON } from "./ui.ts";

/**
 * The confirmation before deliveries are sent again: open while `deliveryIds` is set; Cancel
 * (focused first) or Esc closes it.
 */
export function RedeliverDialog(props: {
  deliveryIds: string[] | null;
  busy: boolean;
  onConfirm(deliveryIds: string[]): void;
  onClose(): void;
}) {
  const { deliveryIds } = props;
  const modal = useModal(deliveryIds !== null);
  return (
    <dialog
      ref={modal.ref}
      aria-labelledby="redeliver-title"
      aria-describedby="redeliver-text"
      data-testid="redeliver-dialog"
      onClose={() => {
        modal.restoreFocus();
        props.onClose();
      }}
      class="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-200 bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      {deliveryIds && (
        <div>
          <h2 id="redeliver-title" class="text-lg font-semibold">Send again?</h2>
          <p id="redeliver-text" class={`mt-2 text-sm ${MUTED}`}>
            The failed and dead messages of {deliveryIds.length === 1
              ? (
                <>
                  delivery <span class="font-mono break-all">{deliveryIds[0]}</span>
                </>
              )
              : `${deliveryIds.length} deliveries`}{" "}
            go back to their queues and are sent again. Messages that were delivered are not sent
            twice.
          </p>
          <div class="mt-5 flex justify-end gap-2">
            <button
              type="button"
              class={SECONDARY_BUTTON}
              data-autofocus
              onClick={() => modal.ref.current?.close()}
            >
              Cancel
            </button>
            <button
              type="button"
              class={PRIMARY_BUTTON}
              disabled={props.busy}
              onClick={() => props.onConfirm(deliveryIds)}
            >
              {props.busy ? "Sending…" : "Redeliver"}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}
