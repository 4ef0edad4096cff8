/**
 * The filter-tree editor: a recursive list of `all` / `any` / `not` groups and event or field
 * leaves. Every row can be selected (fragments are made from the selection and inserted at
 * it), moved within its group (with its buttons, or dragged by its handle), removed, wrapped in
 * a new group or unwrapped; groups change
 * kind and take new leaves and groups. Actions that would break the depth or leaf limit are
 * disabled with the reason shown. Each row shows its verdict on the sample event and the
 * problems that make it invalid.
 */
import type { JSX } from "preact";
import { useRef, useState } from "preact/hooks";
import {
  canInsert,
  canSetKind,
  canUnwrap,
  canWrap,
  cloneNode,
  type GroupKind,
  type GroupNode,
  insertNode,
  isGroup,
  type LeafFilter,
  moveNodeTo,
  removeNode,
  setGroupKind,
  setLeaf,
  toFilterNode,
  type TreeNode,
  unwrapNode,
  wrapNode,
} from "../../../lib/console/filter_tree.ts";
import { newFieldLeaf } from "../../../lib/console/field_leaf.ts";
import { fieldOfControl } from "../../../lib/console/problem_visibility.ts";
import { summarizeFilter } from "../../../lib/console/route_summary.ts";
import { Icon } from "../Icon.tsx";
import { BUTTON, ERROR, INPUT, MUTED } from "../ui.tsx";
import { EventLeaf } from "./EventLeaf.tsx";
import { FieldLeaf } from "./FieldLeaf.tsx";
import { controlId, type TreeApi } from "./tree_api.ts";
import { VerdictBadge, VerdictReason } from "./VerdictLine.tsx";

const KIND_NAMES: Record<GroupKind, string> = {
  all: "All of these match",
  any: "Any of these matches",
  not: "Not: this must not match",
};

const KIND_TAGS: Record<GroupKind | "event" | "field", string> = {
  all: "ALL",
  any: "ANY",
  not: "NOT",
  event: "EVENT",
  field: "FIELD",
};

/** A short name of a node for the labels of its buttons. */
export function nodeLabel(node: TreeNode): string {
  if (isGroup(node)) return `${node.kind} group`;
  const text = summarizeFilter(toFilterNode(node));
  const type = node.filter.type === "event" ? "event" : "field";
  return `${type} ${text.length > 48 ? `${text.slice(0, 47)}…` : text}`;
}

/** A new event leaf: the sample's event by default. */
function newEventLeaf(api: TreeApi): LeafFilter {
  return { type: "event", value: api.sampleEvent ?? "push" };
}

function tagOf(node: TreeNode): keyof typeof KIND_TAGS {
  return isGroup(node) ? node.kind : node.filter.type === "event" ? "event" : "field";
}

/** A row being dragged by its handle, and where among its siblings it would land. */
interface DragState {
  readonly dragging: { id: string; parentId: string } | null;
  /** The position in the parent's children the row would be dropped at (before that child). */
  readonly dropAt: number | null;
  /** The same as last rendered, for the drop line and the dragged row's look. */
  shown: { dragging: DragState["dragging"]; dropAt: number | null };
  start(id: string, parentId: string): void;
  over(index: number): void;
  end(): void;
}

/** The handle that drags a row among its siblings (the move buttons do the same by keyboard). */
function DragHandle(props: { drag: DragState; nodeId: string; parentId: string }) {
  return (
    <span
      aria-hidden="true"
      draggable
      data-testid="drag-handle"
      title="Drag to reorder within the group"
      class="hidden cursor-grab select-none text-slate-500 sm:inline dark:text-slate-400"
      onDragStart={(event) => {
        props.drag.start(props.nodeId, props.parentId);
        const transfer = event.dataTransfer;
        if (!transfer) return;
        transfer.setData("text/plain", props.nodeId);
        transfer.effectAllowed = "move";
        const row = (event.currentTarget as HTMLElement).closest("li");
        if (row) transfer.setDragImage(row, 12, 12);
      }}
      onDragEnd={() => props.drag.end()}
    >
      <Icon name="grip" />
    </span>
  );
}

/** Drop-target handlers of a row: rows of the dragged row's group only, before or after it. */
function dropHandlers(
  api: TreeApi,
  drag: DragState,
  parent: GroupNode | null,
  index: number,
): Pick<JSX.HTMLAttributes<HTMLLIElement>, "onDragOver" | "onDrop"> {
  const accepts = () =>
    drag.dragging !== null && parent !== null && drag.dragging.parentId === parent.id;
  return {
    onDragOver(event) {
      if (!accepts()) return;
      event.preventDefault();
      event.stopPropagation();
      const box = event.currentTarget.getBoundingClientRect();
      drag.over(event.clientY < box.top + box.height / 2 ? index : index + 1);
    },
    onDrop(event) {
      if (!accepts() || drag.dropAt === null) return;
      event.preventDefault();
      event.stopPropagation();
      const id = drag.dragging!.id;
      const from = parent!.children.findIndex((child) => child.id === id);
      const to = drag.dropAt > from ? drag.dropAt - 1 : drag.dropAt;
      drag.end();
      if (from >= 0 && to !== from) {
        api.edit((root) => moveNodeTo(root, id, to), controlId.select(id));
      }
    },
  };
}

/** The drop line shown before or after a row while a sibling is dragged over it. */
function dropLine(drag: DragState, parent: GroupNode | null, index: number): string {
  const { dragging, dropAt } = drag.shown;
  if (!dragging || !parent || dragging.parentId !== parent.id) return "";
  if (dropAt === index) {
    return "before:absolute before:inset-x-0 before:-top-1.5 before:h-0.5 before:bg-indigo-500";
  }
  if (dropAt === index + 1 && index === parent.children.length - 1) {
    return "after:absolute after:inset-x-0 after:-bottom-1.5 after:h-0.5 after:bg-indigo-500";
  }
  return "";
}

/** A small menu of more actions (a disclosure: Esc or a choice closes it). */
function MoreMenu(
  props: { nodeId: string; label: string; children: (close: () => void) => JSX.Element },
) {
  const ref = useRef<HTMLDetailsElement>(null);
  const close = () => {
    if (ref.current) ref.current.open = false;
  };
  return (
    <details
      ref={ref}
      class="relative"
      onKeyDown={(event) => {
        if (event.key === "Escape" && ref.current?.open) {
          event.stopPropagation();
          close();
          ref.current.querySelector("summary")?.focus();
        }
      }}
    >
      <summary
        id={controlId.more(props.nodeId)}
        class={`${BUTTON.icon} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}
        aria-label={`More actions: ${props.label}`}
        title="More actions"
      >
        <Icon name="more" />
      </summary>
      <div class="absolute right-0 z-20 mt-1 flex w-56 flex-col rounded-md border border-slate-200 bg-white p-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900">
        {props.children(close)}
      </div>
    </details>
  );
}

function MenuItem(
  props: { onClick: () => void; disabled?: string | null; children: string; close: () => void },
) {
  return (
    <button
      type="button"
      class="rounded px-2 py-1.5 text-left hover:bg-slate-100 focus:bg-slate-100 focus:outline-none disabled:cursor-not-allowed disabled:opacity-50 dark:hover:bg-slate-800 dark:focus:bg-slate-800"
      disabled={!!props.disabled}
      title={props.disabled ?? undefined}
      onClick={() => {
        props.close();
        props.onClick();
      }}
    >
      {props.children}
      {props.disabled && <span class="block text-xs">{props.disabled}</span>}
    </button>
  );
}

/** The controls every row has: select, move, remove, and the menu. */
function RowActions(
  props: { api: TreeApi; node: TreeNode; parent: GroupNode | null; index: number },
) {
  const { api, node, parent, index } = props;
  const label = nodeLabel(node);
  const siblings = parent?.children.length ?? 1;
  const movable = parent !== null && parent.kind !== "not";
  const wrapRefusal = canWrap(api.root, node.id);
  const unwrapRefusal = isGroup(node) ? canUnwrap(api.root, node.id) : null;
  const wrap = (kind: GroupKind) =>
    api.edit((root, ids) => {
      const groupId = ids.next();
      return wrapNode(root, node.id, kind, groupId);
    }, controlId.select(node.id));
  return (
    <div class="ml-auto flex items-center gap-0.5">
      {movable && (
        <>
          <button
            type="button"
            id={controlId.moveUp(node.id)}
            class={BUTTON.icon}
            aria-label={`Move up: ${label}`}
            title="Move up"
            disabled={index === 0}
            onClick={() =>
              api.edit(
                (root) => moveNodeTo(root, node.id, index - 1),
                index - 1 === 0 ? controlId.moveDown(node.id) : controlId.moveUp(node.id),
              )}
          >
            <Icon name="up" />
          </button>
          <button
            type="button"
            id={controlId.moveDown(node.id)}
            class={BUTTON.icon}
            aria-label={`Move down: ${label}`}
            title="Move down"
            disabled={index === siblings - 1}
            onClick={() =>
              api.edit(
                (root) => moveNodeTo(root, node.id, index + 1),
                index + 1 === siblings - 1
                  ? controlId.moveUp(node.id)
                  : controlId.moveDown(node.id),
              )}
          >
            <Icon name="down" />
          </button>
        </>
      )}
      <MoreMenu nodeId={node.id} label={label}>
        {(close) => (
          <>
            <MenuItem close={close} disabled={wrapRefusal} onClick={() => wrap("all")}>
              Wrap in “all” group
            </MenuItem>
            <MenuItem close={close} disabled={wrapRefusal} onClick={() => wrap("any")}>
              Wrap in “any” group
            </MenuItem>
            <MenuItem close={close} disabled={wrapRefusal} onClick={() => wrap("not")}>
              Wrap in “not” (negate)
            </MenuItem>
            {isGroup(node) && (
              <MenuItem
                close={close}
                disabled={unwrapRefusal}
                onClick={() => api.edit((root) => unwrapNode(root, node.id))}
              >
                Unwrap (keep the children)
              </MenuItem>
            )}
            {parent && parent.kind !== "not" && (
              <MenuItem
                close={close}
                disabled={canInsert(api.root, parent.id, node)}
                onClick={() =>
                  api.edit((root, ids) =>
                    insertNode(root, parent.id, cloneNode(node, ids), index + 1)
                  )}
              >
                Duplicate
              </MenuItem>
            )}
            <MenuItem close={close} onClick={() => api.saveAsFragment(node.id)}>
              Save as fragment…
            </MenuItem>
          </>
        )}
      </MoreMenu>
      <button
        type="button"
        class={`${BUTTON.icon} text-red-700 dark:text-red-300`}
        aria-label={parent ? `Remove: ${label}` : "Clear the whole filter"}
        title={parent ? "Remove" : "Clear the whole filter"}
        onClick={() => {
          const focus = parent
            ? parent.kind === "not" ? controlId.select(api.root.id) : controlId.select(parent.id)
            : controlId.addEvent(api.root.id);
          api.edit((root) => removeNode(root, node.id), focus);
        }}
      >
        <Icon name="close" />
      </button>
    </div>
  );
}

/** The buttons that add to a group, with the reason when a limit stops them. */
function AddBar(props: { api: TreeApi; group: GroupNode }) {
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

/** One node and, for a group, its children. */
function NodeView(
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

/** The whole tree. */
export function TreeEditor(props: { api: TreeApi }) {
  const { api } = props;
  // Kept in refs too: drag events may come faster than the renders that show them.
  const [dragging, setDragging] = useState<DragState["dragging"]>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const current = useRef<{ dragging: DragState["dragging"]; dropAt: number | null }>({
    dragging: null,
    dropAt: null,
  });
  const drag: DragState = {
    get dragging() {
      return current.current.dragging;
    },
    get dropAt() {
      return current.current.dropAt;
    },
    shown: { dragging, dropAt },
    start: (id, parentId) => {
      current.current = { dragging: { id, parentId }, dropAt: null };
      setDragging({ id, parentId });
    },
    over: (index) => {
      if (index === current.current.dropAt) return;
      current.current = { ...current.current, dropAt: index };
      setDropAt(index);
    },
    end: () => {
      current.current = { dragging: null, dropAt: null };
      setDragging(null);
      setDropAt(null);
    },
  };
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
