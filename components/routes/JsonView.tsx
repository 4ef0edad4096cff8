/**
 * The filter tree as JSON (the stored `ast`), editable: valid JSON with a tree's shape replaces
 * the tree as you type; otherwise the reason is shown and the tree keeps its last good state.
 */
import { ERROR, INPUT, MUTED } from "./ui.tsx";

/** The JSON text area and its status. */
export function JsonView(
  props: { text: string; error: string | null; readOnly: boolean; onText: (text: string) => void },
) {
  return (
    <div class="flex flex-col gap-1">
      <textarea
        id="tree-json"
        data-testid="tree-json"
        aria-label="Filter tree as JSON"
        class={`${INPUT} h-56 font-mono text-xs`}
        spellcheck={false}
        value={props.text}
        readOnly={props.readOnly}
        aria-invalid={props.error ? true : undefined}
        aria-describedby="tree-json-status"
        onInput={(event) => props.onText(event.currentTarget.value)}
      />
      <p
        id="tree-json-status"
        data-testid="tree-json-status"
        class={props.error ? ERROR : `text-xs ${MUTED}`}
      >
        {props.error ?? "Edits here update the tree as you type, and the other way round."}
      </p>
    </div>
  );
}
