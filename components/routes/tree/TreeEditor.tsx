/**
 * The filter-tree editor: a recursive list of `all` / `any` / `not` groups and event or field
 * leaves. Every row can be selected (fragments are made from the selection and inserted at
 * it), moved within its group (with its buttons, or dragged by its handle), removed, wrapped in
 * a new group or unwrapped; groups change
 * kind and take new leaves and groups. Actions that would break the depth or leaf limit are
 * disabled with the reason shown. Each row shows its verdict on the sample event and the
 * problems that make it invalid.
 */
import { isGroup, wrapNode } from "../../../lib/console/filter_tree.ts";
import { BUTTON, ERROR } from "../ui.tsx";
import { useDrag } from "./drag.tsx";
import { NodeView } from "./NodeView.tsx";
import type { TreeApi } from "./tree_api.ts";

/** The whole tree. */
export function TreeEditor(props: { api: TreeApi }) {
  const { api } = props;
  const drag = useDrag();
  return (
    <ol class="flex flex-col gap-2" aria-label="Filter tree" data-testid="tree">
      <NodeView api={api} drag={drag} node={api.root} parent={null} index={0} />
      {api.issues.tree.map((message, i) => (
        <li key={i} class={ERROR} data-testid="tree-issue">{message}</li>
      ))}
      {!isGroup(api.root) && !api.readOnly && (
        <li>
          <button
            type="button"
            class={BUTTON.secondary}
            onClick={() => api.edit((root, ids) => wrapNode(root, root.id, "all", ids.next()))}
          >
            Put in an “all” group to add more filters
          </button>
        </li>
      )}
    </ol>
  );
}
