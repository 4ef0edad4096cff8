/** The question before a fragment of the group is deleted. */
import type { Fragment } from "../../../lib/types.ts";
import { Modal } from "../../layout/Modal.tsx";
import { BUTTON, MUTED } from "../ui.tsx";

/** Asks whether to delete `fragment` (open while it is not null). */
export function FragmentDeleteDialog(
  props: { fragment: Fragment | null; onCancel: () => void; onDelete: () => void },
) {
  return (
    <Modal
      open={props.fragment !== null}
      title="Delete this fragment?"
      onClose={props.onCancel}
      testId="confirm-fragment-delete"
      role="alertdialog"
    >
      <p class={`mt-2 text-sm ${MUTED}`}>
        “{props.fragment?.name}” is removed from the group. Routes that used it keep their copy.
      </p>
      <div class="mt-5 flex justify-end gap-2">
        <button type="button" class={BUTTON.secondary} onClick={props.onCancel} autofocus>
          Cancel
        </button>
        <button type="button" class={BUTTON.danger} onClick={props.onDelete}>
          Delete fragment
        </button>
      </div>
    </Modal>
  );
}
