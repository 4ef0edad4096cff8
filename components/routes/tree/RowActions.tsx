/** The controls every row of the filter tree has: move, remove, and a menu of more actions. */
import type { JSX } from "preact";
import { useRef } from "preact/hooks";
import {
  canInsert,
  canUnwrap,
  canWrap,
  cloneNode,
  type GroupKind,
  type GroupNode,
  insertNode,
  isGroup,
  moveNodeTo,
  removeNode,
  type TreeNode,
  unwrapNode,
  wrapNode,
} from "../../../lib/console/filter_tree.ts";
import { Icon } from "../Icon.tsx";
import { BUTTON } from "../ui.tsx";
import { nodeLabel } from "./node_label.ts";
import { controlId, type TreeApi } from "./tree_api.ts";

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

/**
 * Moves a row up or down among its siblings; focus stays on the button that moved it, or goes
 * to the other one when the row reached the end.
 */
function MoveButton(
  props: {
    api: TreeApi;
    node: TreeNode;
    index: number;
    siblings: number;
    up?: boolean;
    label: string;
  },
) {
  const { api, node, index, up } = props;
  const to = up ? index - 1 : index + 1;
  const end = up ? 0 : props.siblings - 1;
  const [self, other] = up
    ? [controlId.moveUp(node.id), controlId.moveDown(node.id)]
    : [controlId.moveDown(node.id), controlId.moveUp(node.id)];
  return (
    <button
      type="button"
      id={self}
      class={BUTTON.icon}
      aria-label={`Move ${up ? "up" : "down"}: ${props.label}`}
      title={up ? "Move up" : "Move down"}
      disabled={index === end}
      onClick={() => api.edit((root) => moveNodeTo(root, node.id, to), to === end ? other : self)}
    >
      <Icon name={up ? "up" : "down"} />
    </button>
  );
}

/** The controls every row has: select, move, remove, and the menu. */
export function RowActions(
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
          <MoveButton api={api} node={node} index={index} siblings={siblings} up label={label} />
          <MoveButton api={api} node={node} index={index} siblings={siblings} label={label} />
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
