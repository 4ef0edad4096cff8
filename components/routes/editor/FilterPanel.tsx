/** The route editor's "Filter" panel: the verdict, the tree, its limits and its JSON. */
import { heightOf, leafCount, MAX_DEPTH, MAX_LEAVES } from "../../../lib/console/filter_tree.ts";
import type { TreeVerdicts } from "../../../lib/console/tree_check.ts";
import { JsonView } from "../JsonView.tsx";
import { TreeEditor } from "../tree/TreeEditor.tsx";
import type { TreeApi } from "../tree/tree_api.ts";
import { LINK, MUTED, Panel } from "../ui.tsx";
import { VerdictSummary } from "../VerdictSummary.tsx";
import type { FilterTreeModel } from "./use_filter_tree.ts";

/** The filter of the route, explained against the sample. */
export function FilterPanel(
  props: {
    tree: FilterTreeModel;
    api: TreeApi;
    explained: TreeVerdicts | null;
    server: { text: string; ok: boolean } | null;
    sample: { error: string | null; loading: boolean };
    route: { enabled: boolean; fallback: boolean };
    readOnly: boolean;
  },
) {
  const { tree, readOnly } = props;
  const { jsonText, jsonError } = tree;
  const leaves = leafCount(tree.tree);
  const depth = heightOf(tree.tree);
  const nearLimit = leaves >= MAX_LEAVES - 8 || depth >= MAX_DEPTH - 1;
  return (
    <Panel
      title="Filter"
      headingId="filter-heading"
      actions={
        <p
          data-testid="limits"
          class={`text-xs ${
            nearLimit ? "font-semibold text-amber-800 dark:text-amber-200" : MUTED
          }`}
        >
          {leaves} of {MAX_LEAVES} filters · {depth} of {MAX_DEPTH} levels
        </p>
      }
    >
      <VerdictSummary
        explained={props.explained}
        sampleError={props.sample.error}
        loading={props.sample.loading}
        enabled={props.route.enabled}
        fallback={props.route.fallback}
        server={props.server}
        problems={tree.issues.count - tree.hiddenProblems}
        incomplete={tree.hiddenProblems}
      />
      <div class="mt-3">
        <TreeEditor api={props.api} />
      </div>
      <details class="mt-4" open={jsonError !== null}>
        <summary class={`cursor-pointer text-sm font-medium ${LINK} w-fit`}>JSON</summary>
        <div class="mt-2">
          <JsonView text={jsonText} error={jsonError} readOnly={readOnly} onText={tree.onJson} />
        </div>
      </details>
    </Panel>
  );
}
