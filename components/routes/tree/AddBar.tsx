/** The buttons under a group of the filter tree that add leaves and groups to it. */
import {
  canInsert,
  type GroupKind,
  type GroupNode,
  insertNode,
  type LeafFilter,
  type TreeNode,
} from "../../../lib/console/filter_tree.ts";
import { newFieldLeaf } from "../../../lib/console/field_leaf.ts";
import { BUTTON } from "../ui.tsx";
import { controlId, type TreeApi } from "./tree_api.ts";

/** A new event leaf: the sample's event by default. */
function newEventLeaf(api: TreeApi): LeafFilter {
  return { type: "event", value: api.sampleEvent ?? "push" };
}

/** The buttons that add to a group, with the reason when a limit stops them. */
export function AddBar(props: { api: TreeApi; group: GroupNode }) {
  const { api, group } = props;
  const leaf: TreeNode = { id: "", kind: "leaf", filter: newFieldLeaf() };
  const nested: TreeNode = { id: "", kind: "all", children: [] };
  const leafRefusal = canInsert(api.root, group.id, leaf);
  const groupRefusal = canInsert(api.root, group.id, nested) ??
    (canInsert(api.root, group.id, { ...nested, children: [leaf] })
      ? "no room for a filter inside a new group"
      : null);
  const subKind: GroupKind = group.kind === "any" ? "all" : "any";
  return (
    <div class="mt-2 flex flex-wrap items-center gap-1.5">
      <AddButton
        id={controlId.addEvent(group.id)}
        api={api}
        group={group}
        refusal={leafRefusal}
        label="+ Event"
        rest={` filter in the ${group.kind} group`}
        make={(id) => ({ id, kind: "leaf", filter: newEventLeaf(api) })}
        focus={(id) => controlId.eventKind(id, 0)}
      />
      <AddButton
        api={api}
        group={group}
        refusal={leafRefusal}
        label="+ Field"
        rest={` filter in the ${group.kind} group`}
        make={(id) => ({ id, kind: "leaf", filter: newFieldLeaf() })}
        focus={(id) => controlId.path(id)}
      />
      <AddButton
        api={api}
        group={group}
        refusal={groupRefusal}
        label={`+ “${subKind}” group`}
        rest={` in the ${group.kind} group`}
        make={(id) => ({ id, kind: subKind, children: [] })}
        focus={(id) => controlId.groupKind(id)}
      />
      {(leafRefusal ?? groupRefusal) && (
        <span class="text-xs text-amber-800 dark:text-amber-200" data-testid="limit-reason">
          Limit reached: {leafRefusal ?? groupRefusal}
        </span>
      )}
    </div>
  );
}

function AddButton(
  props: {
    id?: string;
    api: TreeApi;
    group: GroupNode;
    refusal: string | null;
    /** The visible text; its accessible name starts with it. */
    label: string;
    /** The rest of the accessible name, for screen readers only (`filter in the all group`). */
    rest: string;
    make: (id: string) => TreeNode;
    focus: (id: string) => string;
  },
) {
  return (
    <button
      type="button"
      id={props.id}
      class={`${BUTTON.secondary} px-2 py-1 text-xs`}
      disabled={!!props.refusal}
      title={props.refusal ?? undefined}
      onClick={() => {
        let added: string | undefined;
        props.api.edit((root, ids) => {
          added = ids.next();
          return insertNode(root, props.group.id, props.make(added));
        }, () => added && props.focus(added));
        if (added) props.api.added(added);
      }}
    >
      {props.label}
      <span class="sr-only">{props.rest}</span>
    </button>
  );
}
