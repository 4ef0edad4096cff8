/**
 * What every row of the filter-tree editor receives from the route editor island: the tree,
 * its problems and verdicts, the selection, and the one way to change the tree.
 */
import type { NodeIds, TreeNode } from "../../../lib/console/filter_tree.ts";
import type { TreeIssues, Verdict } from "../../../lib/console/tree_check.ts";

/** The editor's shared state and actions. */
export interface TreeApi {
  root: TreeNode;
  issues: TreeIssues;
  /** Verdicts against the sample event; null when there is no usable sample. */
  verdicts: Map<string, Verdict> | null;
  /** The selected node (fragments are made from it and inserted at it). */
  selected: string | null;
  readOnly: boolean;
  /** The sample's event as a pattern (`pull_request.opened`), the default of a new event leaf. */
  sampleEvent: string | null;
  /**
   * Applies an edit; `focus` is the id of the element to focus once it is shown (a function
   * when the id is only known after the edit ran).
   */
  edit(
    change: (root: TreeNode, ids: NodeIds) => TreeNode,
    focus?: string | (() => string | undefined),
  ): void;
  select(id: string | null): void;
  /** Whether a problem of a node's field (null: the whole leaf) is shown yet. */
  shows(nodeId: string, field: string | null): boolean;
  /** Notes a node the person added (its problems wait until its fields are left). */
  added(nodeId: string): void;
  /** Notes that the person left a field of a node (`path`, `op`, `value`). */
  left(nodeId: string, field: string): void;
  /** Selects the node and moves to the form that saves it as a fragment. */
  saveAsFragment(id: string): void;
}

/** Element ids of a node's controls, for labels and for moving focus. */
export const controlId = {
  select: (nodeId: string) => `${nodeId}-select`,
  groupKind: (nodeId: string) => `${nodeId}-kind`,
  eventKind: (nodeId: string, index: number) => `${nodeId}-event-${index}`,
  eventAction: (nodeId: string, index: number) => `${nodeId}-action-${index}`,
  path: (nodeId: string) => `${nodeId}-path`,
  op: (nodeId: string) => `${nodeId}-op`,
  value: (nodeId: string) => `${nodeId}-value`,
  more: (nodeId: string) => `${nodeId}-more`,
  moveUp: (nodeId: string) => `${nodeId}-up`,
  moveDown: (nodeId: string) => `${nodeId}-down`,
  addEvent: (nodeId: string) => `${nodeId}-add-event`,
};
