/**
 * A button that runs an action on the page rather than submitting a form, off while an action
 * runs (`busy`).
 */
import type { ComponentChildren } from "preact";

/** A `type="button"` button with the classes `class`, disabled while `busy`. */
export function ActionButton(
  props: { class: string; busy: boolean; onClick: () => void; children: ComponentChildren },
) {
  return (
    <button type="button" class={props.class} disabled={props.busy} onClick={props.onClick}>
      {props.children}
    </button>
  );
}
