/**
 * The group's named fragments beside the tree: each can be inserted (as a copy) at the
 * selected node, or deleted; the selected node can be saved as a new fragment.
 */
import type { Fragment } from "../../lib/types.ts";
import { summarizeFilter } from "../../lib/console/route_summary.ts";
import { Icon } from "./Icon.tsx";
import { BUTTON, ERROR, INPUT, LABEL, MUTED } from "./ui.tsx";

/** The fragments list and the "save the selection" form. */
export function FragmentsPanel(
  props: {
    fragments: Fragment[];
    /** Where an insert goes, in words; null when nothing can be inserted. */
    insertInto: string;
    /** Why a fragment cannot be inserted now (limits), by fragment id. */
    refusals: Map<string, string | null>;
    /** The selected node in words; null when none is selected. */
    selection: string | null;
    name: string;
    nameProblem: string | null;
    busy: boolean;
    readOnly: boolean;
    onName: (name: string) => void;
    onSave: () => void;
    onInsert: (fragment: Fragment) => void;
    onDelete: (fragment: Fragment) => void;
  },
) {
  return (
    <div class="flex flex-col gap-3">
      {props.fragments.length === 0
        ? (
          <p class={`text-sm ${MUTED}`}>
            No fragments yet. Select a node of the tree and save it here to reuse it in other
            routes.
          </p>
        )
        : (
          <>
            {!props.readOnly && (
              <p class={`text-xs ${MUTED}`}>
                Insert puts a copy into <span class="font-medium">{props.insertInto}</span>.
              </p>
            )}
            <ul class="flex flex-col gap-2" aria-label="Fragments" data-testid="fragments">
              {props.fragments.map((fragment) => {
                const refusal = props.refusals.get(fragment.id) ?? null;
                return (
                  <li
                    key={fragment.id}
                    data-testid="fragment"
                    class="rounded-md border border-slate-200 p-2 dark:border-slate-700"
                  >
                    <div class="flex items-start justify-between gap-2">
                      <div class="min-w-0">
                        <p class="break-words text-sm font-medium">{fragment.name}</p>
                        <p class={`break-words font-mono text-xs ${MUTED}`}>
                          {summarizeFilter(fragment.node)}
                        </p>
                      </div>
                      {!props.readOnly && (
                        <div class="flex shrink-0 gap-1">
                          <button
                            type="button"
                            class={`${BUTTON.secondary} px-2 py-1 text-xs`}
                            aria-label={`Insert fragment ${fragment.name}`}
                            disabled={!!refusal}
                            title={refusal ?? undefined}
                            onClick={() => props.onInsert(fragment)}
                          >
                            Insert
                          </button>
                          <button
                            type="button"
                            class={`${BUTTON.icon} text-red-700 dark:text-red-300`}
                            aria-label={`Delete fragment ${fragment.name}`}
                            disabled={props.busy}
                            onClick={() => props.onDelete(fragment)}
                          >
                            <Icon name="close" />
                          </button>
                        </div>
                      )}
                    </div>
                    {refusal && (
                      <p class="mt-1 text-xs text-amber-800 dark:text-amber-200">{refusal}</p>
                    )}
                  </li>
                );
              })}
            </ul>
          </>
        )}
      {!props.readOnly && (
        <form
          class="flex flex-col gap-1 border-t border-slate-200 pt-3 dark:border-slate-700"
          onSubmit={(event) => {
            event.preventDefault();
            props.onSave();
          }}
        >
          <label class="flex flex-col gap-0.5">
            <span class={LABEL}>
              {props.selection
                ? `Save the selected ${props.selection} as a fragment`
                : "Save a node as a fragment (select it in the tree first)"}
            </span>
            <input
              id="fragment-name"
              class={INPUT}
              placeholder="Fragment name, e.g. Bug label"
              value={props.name}
              aria-invalid={props.nameProblem ? true : undefined}
              aria-describedby={props.nameProblem ? "fragment-name-error" : undefined}
              onInput={(event) => props.onName(event.currentTarget.value)}
            />
          </label>
          {props.nameProblem && <p id="fragment-name-error" class={ERROR}>{props.nameProblem}</p>}
          <button
            type="submit"
            class={`${BUTTON.secondary} self-start px-2 py-1 text-xs`}
            disabled={!props.selection || props.busy}
          >
            Save as fragment
          </button>
        </form>
      )}
    </div>
  );
}
