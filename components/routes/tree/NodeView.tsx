/** One row of the filter tree: a group with its children, or an event or field leaf. */
import {
  canSetKind,
  type GroupKind,
  type GroupNode,
  isGroup,
  setGroupKind,
  setLeaf,
  type TreeNode,
} from "../../../lib/console/filter_tree.ts";
import { fieldOfControl } from "../../../lib/console/problem_visibility.ts";
import { ERROR, INPUT, MUTED } from "../ui.tsx";
import { AddBar } from "./AddBar.tsx";
import { DragHandle, type DragState, dropHandlers, dropLine } from "./drag.tsx";
import { EventLeaf } from "./EventLeaf.tsx";
import { FieldLeaf } from "./FieldLeaf.tsx";
import { KIND_NAMES, KIND_TAGS, nodeLabel, tagOf } from "./node_label.ts";
import { RowActions } from "./RowActions.tsx";
import { controlId, type TreeApi } from "./tree_api.ts";
import { VerdictBadge, VerdictReason } from "./VerdictLine.tsx";

/** One node and, for a group, its children. */
export function NodeView(
  props: {
    api: TreeApi;
    drag: DragState;
    node: TreeNode;
    parent: GroupNode | null;
    index: number;
  },
) {
  const { api, drag, node, parent, index } = props;
  const allIssues = api.issues.byNode.get(node.id) ?? [];
  const issues = allIssues.filter((issue) => api.shows(node.id, issue.field));
  const explained = api.verdicts?.get(node.id);
  const verdict = explained?.matched === null && issues.length < allIssues.length
    ? { ...explained, reason: "not evaluated until it is filled in" }
    : explained;
  const selected = api.selected === node.id;
  const tag = tagOf(node);
  const label = nodeLabel(node);
  const groupIssues = isGroup(node) ? issues : [];
  return (
    <li
      data-testid="node"
      data-node-id={node.id}
      data-kind={tag}
      {...dropHandlers(api, drag, parent, index)}
      onFocusOut={(event) => {
        const field = fieldOfControl(node.id, (event.target as HTMLElement).id);
        if (field) api.left(node.id, field);
      }}
      class={`relative min-w-0 rounded-md border p-2 sm:p-3 ${dropLine(drag, parent, index)} ${
        drag.shown.dragging?.id === node.id ? "opacity-50" : ""
      } ${
        selected
          ? "border-indigo-500 ring-2 ring-indigo-500/40"
          : issues.length > 0
          ? "border-red-300 dark:border-red-700"
          : "border-slate-200 dark:border-slate-700"
      } ${isGroup(node) ? "bg-slate-50 dark:bg-slate-950/60" : "bg-white dark:bg-slate-900"}`}
    >
      <div class="flex flex-wrap items-center gap-2">
        {!api.readOnly && parent !== null && parent.kind !== "not" && (
          <DragHandle drag={drag} nodeId={node.id} parentId={parent.id} />
        )}
        <button
          type="button"
          id={controlId.select(node.id)}
          aria-pressed={selected}
          aria-label={`Select: ${label}`}
          title="Select (to save as a fragment or insert a fragment here)"
          class={`rounded px-1.5 py-0.5 font-mono text-[11px] font-bold tracking-wide focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${
            selected
              ? "bg-indigo-600 text-white dark:bg-indigo-400 dark:text-slate-950"
              : "bg-slate-200 text-slate-800 hover:bg-slate-300 dark:bg-slate-700 dark:text-slate-100 dark:hover:bg-slate-600"
          }`}
          onClick={() => api.select(selected ? null : node.id)}
        >
          {KIND_TAGS[tag]}
        </button>
        {isGroup(node) && (
          <select
            id={controlId.groupKind(node.id)}
            class={`${INPUT} w-auto`}
            aria-label="Group kind"
            value={node.kind}
            disabled={api.readOnly}
            onChange={(event) =>
              api.edit(
                (root) => setGroupKind(root, node.id, event.currentTarget.value as GroupKind),
                controlId.groupKind(node.id),
              )}
          >
            {(["all", "any", "not"] as const).map((kind) => (
              <option
                key={kind}
                value={kind}
                disabled={!!canSetKind(api.root, node.id, kind)}
              >
                {KIND_NAMES[kind]}
              </option>
            ))}
          </select>
        )}
        <VerdictBadge verdict={verdict} nodeId={node.id} />
        {!api.readOnly && <RowActions api={api} node={node} parent={parent} index={index} />}
      </div>
      {node.kind === "leaf" && node.filter.type === "event" && (
        <EventLeaf
          nodeId={node.id}
          filter={node.filter}
          issues={issues}
          readOnly={api.readOnly}
          sampleEvent={api.sampleEvent}
          onChange={(filter, focus) => api.edit((root) => setLeaf(root, node.id, filter), focus)}
        />
      )}
      {node.kind === "leaf" && node.filter.type === "field" && (
        <FieldLeaf
          nodeId={node.id}
          filter={node.filter}
          issues={issues}
          verdict={verdict}
          readOnly={api.readOnly}
          onChange={(filter) => api.edit((root) => setLeaf(root, node.id, filter))}
        />
      )}
      {node.kind === "leaf" &&
        issues.filter((i) => i.field === null || i.field === "type").map((issue, i) => (
          <p key={i} class={`mt-1 ${ERROR}`}>{issue.message}</p>
        ))}
      {groupIssues.map((issue, i) => <p key={i} class={`mt-1 ${ERROR}`}>{issue.message}</p>)}
      <VerdictReason verdict={verdict} nodeId={node.id} />
      {isGroup(node) && (
        <>
          {node.children.length === 0
            ? (
              <p class={`mt-2 text-xs ${MUTED}`}>
                {node.kind === "all"
                  ? "Empty: an empty “all” matches every event."
                  : "Empty: an empty “any” matches no event."}
              </p>
            )
            : (
              <ol
                class="mt-2 flex flex-col gap-2 border-l-2 border-slate-200 pl-2 sm:pl-3 dark:border-slate-700"
                aria-label={`${KIND_NAMES[node.kind]}`}
              >
                {node.children.map((child, childIndex) => (
                  <NodeView
                    key={child.id}
                    api={api}
                    drag={drag}
                    node={child}
                    parent={node}
                    index={childIndex}
                  />
                ))}
              </ol>
            )}
          {!api.readOnly && node.kind !== "not" && <AddBar api={api} group={node} />}
        </>
      )}
    </li>
  );
}
