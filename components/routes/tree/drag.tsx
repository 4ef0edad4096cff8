/** Reordering rows of the filter tree by dragging them among their siblings. */
import type { JSX } from "preact";
import { useRef, useState } from "preact/hooks";
import { type GroupNode, moveNodeTo } from "../../../lib/console/filter_tree.ts";
import { Icon } from "../Icon.tsx";
import { controlId, type TreeApi } from "./tree_api.ts";

/** A row being dragged by its handle, and where among its siblings it would land. */
export interface DragState {
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
export function DragHandle(props: { drag: DragState; nodeId: string; parentId: string }) {
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
export function dropHandlers(
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
export function dropLine(drag: DragState, parent: GroupNode | null, index: number): string {
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

/** The drag of the tree's rows; kept in refs too: drag events may come faster than renders. */
export function useDrag(): DragState {
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
  return drag;
}
