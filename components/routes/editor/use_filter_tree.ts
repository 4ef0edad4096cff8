/**
 * The route editor's filter tree: the tree, its JSON view kept in sync both ways, the selected
 * node, and which of its problems are shown yet (`lib/console/problem_visibility.ts`).
 */
import { useMemo, useRef, useState } from "preact/hooks";
import {
  fromFilterNode,
  NodeIds,
  toFilterNode,
  type TreeNode,
  TreeShapeError,
} from "../../../lib/console/filter_tree.ts";
import {
  hiddenCount,
  isShown,
  type ProblemVisibility,
  touchedKeys,
} from "../../../lib/console/problem_visibility.ts";
import { checkTree } from "../../../lib/console/tree_check.ts";
import type { FilterNode, Route } from "../../../lib/types.ts";
import type { TreeApi } from "../tree/tree_api.ts";

const EMPTY: FilterNode = { all: [] };
const pretty = (node: FilterNode) => JSON.stringify(node, null, 2);

function treeOf(route: Route | undefined, ids: NodeIds): TreeNode {
  const node = route ? route.ast ?? { all: route.filters } : EMPTY;
  try {
    return fromFilterNode(node, ids);
  } catch {
    return fromFilterNode(EMPTY, ids);
  }
}

/**
 * The filter tree of `original` (empty for a new route). `onEdit` runs on every change the
 * person makes; `focusAfter` moves focus once the change is shown; `attempted` says whether a
 * save was tried (every problem is shown from then on).
 */
export function useFilterTree(
  original: Route | undefined,
  options: { attempted: boolean; onEdit: () => void; focusAfter: (id: string) => void },
) {
  const ids = useRef<NodeIds | null>(null);
  ids.current ??= new NodeIds();
  const [tree, setTree] = useState<TreeNode>(() => treeOf(original, ids.current!));
  const treeRef = useRef(tree);
  const [jsonText, setJsonText] = useState(() => pretty(toFilterNode(tree)));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const issues = useMemo(() => checkTree(tree), [tree]);
  const node = useMemo(() => toFilterNode(tree), [tree]);
  const visibility: ProblemVisibility = { attempted: options.attempted, fresh, touched };

  const edit: TreeApi["edit"] = (change, focus) => {
    const next = change(treeRef.current, ids.current!);
    if (next === treeRef.current) return;
    treeRef.current = next;
    setTree(next);
    setJsonText(pretty(toFilterNode(next)));
    setJsonError(null);
    options.onEdit();
    const target = typeof focus === "function" ? focus() : focus;
    if (target) options.focusAfter(target);
  };

  const replaceTree = (next: TreeNode) => {
    treeRef.current = next;
    setTree(next);
    setSelected(null);
  };

  return {
    tree,
    node,
    issues,
    selected,
    jsonText,
    jsonError,
    /** Problems of the tree not shown yet (fields not filled in and not left). */
    hiddenProblems: hiddenCount(visibility, issues),
    /** The tree as it is now, also between a change and the render that shows it. */
    current: () => treeRef.current,
    edit,
    setSelected,
    /** Text typed into the JSON view: the tree follows when it is a valid filter. */
    onJson(text: string) {
      setJsonText(text);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        setJsonError(`Not valid JSON: ${(error as Error).message}`);
        return;
      }
      try {
        replaceTree(fromFilterNode(value, ids.current!));
        setJsonError(null);
        options.onEdit();
      } catch (error) {
        if (!(error instanceof TreeShapeError)) throw error;
        setJsonError(`Not a filter tree: ${error.message}`);
      }
    },
    /** Shows the filter of `route` as now stored. */
    load(route: Route) {
      const next = treeOf(route, ids.current!);
      replaceTree(next);
      setJsonText(pretty(toFilterNode(next)));
    },
    /** What the rows of the tree editor need, besides the verdicts and the sample. */
    rowApi(): Pick<
      TreeApi,
      "root" | "issues" | "selected" | "edit" | "select" | "shows" | "added" | "left"
    > {
      return {
        root: tree,
        issues,
        selected,
        edit,
        select: setSelected,
        shows: (nodeId, field) => isShown(visibility, nodeId, field),
        added: (nodeId) => setFresh((current) => new Set([...current, nodeId])),
        left: (nodeId, field) =>
          setTouched((current) => {
            const keys = touchedKeys(nodeId, field);
            return keys.every((key) => current.has(key)) ? current : new Set([...current, ...keys]);
          }),
      };
    },
  };
}

/** The filter tree {@link useFilterTree} answers. */
export type FilterTreeModel = ReturnType<typeof useFilterTree>;
