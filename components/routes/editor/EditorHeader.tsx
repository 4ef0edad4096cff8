/** The route editor's top line: where it is (breadcrumb), unsaved changes, and Save. */
import { BUTTON, LINK, MUTED } from "../ui.tsx";

/** The breadcrumb and the save button of the route editor. */
export function EditorHeader(
  props: {
    group: { id: string; name: string };
    /** The route's name (or id) in the breadcrumb; null for a new route. */
    title: string | null;
    dirty: boolean;
    readOnly: boolean;
    saving: boolean;
    onSave: () => void;
  },
) {
  const { readOnly } = props;
  const groupHref = `/admin/routes/${encodeURIComponent(props.group.id)}`;
  return (
    <div class="mb-4 flex flex-wrap items-center justify-between gap-3">
      <nav aria-label="Breadcrumb" class={`text-sm ${MUTED}`}>
        <a class={LINK} href="/admin/routes">Routes</a>
        <span aria-hidden="true" class="mx-1">/</span>
        <a class={LINK} href={groupHref}>{props.group.name}</a>
        <span aria-hidden="true" class="mx-1">/</span>
        <span aria-current="page">{props.title ?? "New route"}</span>
      </nav>
      <div class="flex items-center gap-3">
        {props.dirty && !readOnly && (
          <span class={`text-xs ${MUTED}`} data-testid="unsaved">Unsaved changes</span>
        )}
        {readOnly
          ? <span class={`text-sm ${MUTED}`}>Read only: viewers cannot change routes.</span>
          : (
            <button
              type="button"
              class={BUTTON.primary}
              onClick={props.onSave}
              disabled={props.saving}
              aria-keyshortcuts="Control+S"
              title="Save (Ctrl+S)"
            >
              {props.saving ? "Saving…" : props.title === null ? "Create route" : "Save route"}
            </button>
          )}
      </div>
    </div>
  );
}
