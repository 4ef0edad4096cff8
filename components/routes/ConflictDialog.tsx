/**
 * Shown when a save answers 409: who changed what in the group's routes since this page read
 * them (routes added, removed, changed, by name), and the two ways on: reload, or overwrite
 * with this page's version.
 */
import type { RouteDiff } from "../../lib/console/route_diff.ts";
import { Modal } from "../layout/Modal.tsx";
import { BUTTON, MUTED } from "./ui.tsx";

function Names(props: { label: string; names: string[]; testId: string }) {
  if (props.names.length === 0) return null;
  return (
    <li data-testid={props.testId}>
      <span class="font-medium">{props.label}:</span> {props.names.join(", ")}
    </li>
  );
}

/** The conflict dialog; `diff` null means closed. */
export function ConflictDialog(
  props: {
    diff: RouteDiff | null;
    reloadHint: string;
    onReload: () => void;
    onOverwrite: () => void;
    /** Closing without a choice (Esc, or Cancel when `onCancel` is given). */
    onDismiss: () => void;
    /** Offers Cancel: keep this page's changes unsaved for now. */
    onCancel?: () => void;
  },
) {
  const diff = props.diff;
  return (
    <Modal
      open={diff !== null}
      title="Someone else changed these routes"
      onClose={props.onDismiss}
      testId="conflict"
      role="alertdialog"
      wide
    >
      {diff && (
        <>
          <p class={`mt-2 text-sm ${MUTED}`}>
            Since this page loaded, the group's routes were changed elsewhere:
          </p>
          <ul class="mt-3 space-y-1 text-sm" data-testid="conflict-diff">
            <Names label="Added" names={diff.added} testId="diff-added" />
            <Names label="Removed" names={diff.removed} testId="diff-removed" />
            <Names label="Changed" names={diff.changed} testId="diff-changed" />
            {diff.reordered && <li data-testid="diff-reordered">The order changed.</li>}
          </ul>
          <p class={`mt-3 text-sm ${MUTED}`}>{props.reloadHint}</p>
          <div class="mt-5 flex flex-wrap justify-end gap-2">
            {props.onCancel && (
              <button type="button" class={BUTTON.secondary} onClick={props.onCancel}>
                Cancel
              </button>
            )}
            <button type="button" class={BUTTON.danger} onClick={props.onOverwrite}>
              Overwrite their changes
            </button>
            <button type="button" class={BUTTON.primary} onClick={props.onReload} autofocus>
              Reload
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
