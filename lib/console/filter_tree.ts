/**
 * The filter-tree editor's model: a filter tree whose nodes carry ids, so the console can keep
 * focus and keys stable while nodes are added, moved and changed. Conversion to and from the
 * stored form (`FilterNode`), the edits the editor offers (each returns a new tree and leaves
 * the old one untouched), and the depth and leaf limits each edit must respect. Leaves keep
 * their stored object as written, so an invalid value stays visible until it is fixed.
 * Browser-safe.
 */
import { MAX_DEPTH, MAX_LEAVES } from "../limits.ts";
import type { FilterNode } from "../types.ts";

export { MAX_DEPTH, MAX_LEAVES };

/** The kind of a group node. */
export type GroupKind = "all" | "any" | "not";

/** A stored leaf as the editor holds it (`{ type: "event" | "field", … }`, maybe invalid). */
export type LeafFilter = { type: "event" | "field" } & Record<string, unknown>;

/** A node of the editor's tree. A `not` group has exactly one child. */
export type TreeNode =
  | { id: string; kind: GroupKind; children: TreeNode[] }
  | { id: string; kind: "leaf"; filter: LeafFilter };

/** A group node. */
export type GroupNode = Extract<TreeNode, { kind: GroupKind }>;

/** Hands out node ids: `n1`, `n2`, … (the same sequence on the server and in the browser). */
export class NodeIds {
  #next = 1;
  /** A new id. */
  next(): string {
    return `n${this.#next++}`;
  }
}

/** Whether a node is a group. */
export function isGroup(node: TreeNode): node is GroupNode {
  return node.kind !== "leaf";
}

/** Deepest structure the JSON view converts (validation reports anything past MAX_DEPTH). */
const MAX_CONVERTED_DEPTH = 32;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Thrown when JSON does not have the shape of a filter tree. */
export class TreeShapeError extends Error {
  override name = "TreeShapeError";
}

function convert(value: unknown, ids: NodeIds, where: string, depth: number): TreeNode {
  if (depth > MAX_CONVERTED_DEPTH) throw new TreeShapeError(`${where}: nested too deeply`);
  if (!isObject(value)) throw new TreeShapeError(`${where || "the tree"}: expected an object`);
  const keys = ["type", "all", "any", "not"].filter((key) => Object.hasOwn(value, key));
  if (keys.length !== 1) {
    throw new TreeShapeError(
      `${where || "the tree"}: a node has exactly one of type, all, any or not`,
    );
  }
  const [key] = keys;
  if (key === "type") {
    if (value.type !== "event" && value.type !== "field") {
      throw new TreeShapeError(`${where || "the tree"}.type: must be "event" or "field"`);
    }
    return { id: ids.next(), kind: "leaf", filter: { ...value } as LeafFilter };
  }
  const at = (suffix: string) => (where ? `${where}.${suffix}` : suffix);
  if (key === "not") {
    return {
      id: ids.next(),
      kind: "not",
      children: [convert(value.not, ids, at("not"), depth + 1)],
    };
  }
  const list = value[key];
  if (!Array.isArray(list)) throw new TreeShapeError(`${at(key)}: must be a list of nodes`);
  const id = ids.next();
  return {
    id,
    kind: key as "all" | "any",
    children: list.map((child, index) => convert(child, ids, `${at(key)}[${index}]`, depth + 1)),
  };
}

/**
 * The editor's tree for a stored filter tree (or any parsed JSON). Throws a TreeShapeError
 * naming the place when the value does not have a tree's shape; leaf values are not checked
 * here (see `validateFilterNode`).
 */
export function fromFilterNode(value: unknown, ids: NodeIds): TreeNode {
  return convert(value, ids, "", 1);
}

/** The stored form of the editor's tree. */
export function toFilterNode(node: TreeNode): FilterNode {
  switch (node.kind) {
    case "leaf":
      return { ...node.filter } as unknown as FilterNode;
    case "not":
      return { not: toFilterNode(node.children[0]) };
    default:
      return { [node.kind]: node.children.map(toFilterNode) } as FilterNode;
  }
}

/** A copy of a subtree with new ids (inserting a fragment, duplicating). */
export function cloneNode(node: TreeNode, ids: NodeIds): TreeNode {
  return isGroup(node)
    ? { id: ids.next(), kind: node.kind, children: node.children.map((c) => cloneNode(c, ids)) }
    : { id: ids.next(), kind: "leaf", filter: structuredClone(node.filter) };
}

/** Where a node sits: its ancestors from the root (the node's parent last) and its index. */
export interface Location {
  node: TreeNode;
  ancestors: GroupNode[];
  index: number;
}

/** The node with `id` and where it sits; null when the tree has none. */
export function locate(root: TreeNode, id: string): Location | null {
  if (root.id === id) return { node: root, ancestors: [], index: 0 };
  if (!isGroup(root)) return null;
  for (const [index, child] of root.children.entries()) {
    if (child.id === id) return { node: child, ancestors: [root], index };
    const found = locate(child, id);
    if (found) return { ...found, ancestors: [root, ...found.ancestors] };
  }
  return null;
}

/** The tree with the node `id` replaced by what `change` makes of it. */
function replaceNode(root: TreeNode, id: string, change: (node: TreeNode) => TreeNode): TreeNode {
  if (root.id === id) return change(root);
  if (!isGroup(root)) return root;
  let changed = false;
  const children = root.children.map((child) => {
    const next = replaceNode(child, id, change);
    if (next !== child) changed = true;
    return next;
  });
  return changed ? { ...root, children } : root;
}

/** The tree with the group `id`'s children replaced by what `change` makes of them. */
function changeChildren(
  root: TreeNode,
  id: string,
  change: (children: TreeNode[]) => TreeNode[],
): TreeNode {
  return replaceNode(
    root,
    id,
    (node) => isGroup(node) ? { ...node, children: change(node.children) } : node,
  );
}

/** Levels from the root to the node (the root is level 1); 0 when absent. */
function levelOf(root: TreeNode, id: string): number {
  const found = locate(root, id);
  return found ? found.ancestors.length + 1 : 0;
}

/** Levels of a subtree: a leaf or an empty group is 1. */
export function heightOf(node: TreeNode): number {
  return isGroup(node) ? 1 + Math.max(0, ...node.children.map(heightOf)) : 1;
}

/** Leaves in a subtree. */
export function leafCount(node: TreeNode): number {
  return isGroup(node) ? node.children.reduce((sum, child) => sum + leafCount(child), 0) : 1;
}

/** Why an edit is refused (null when it is allowed). */
export type Refusal = string | null;

const depthRefusal = `the tree may be at most ${MAX_DEPTH} levels deep`;
const leafRefusal = `the tree may have at most ${MAX_LEAVES} filters`;

/** Whether `node` may go into the group `groupId` (depth and leaf limits). */
export function canInsert(root: TreeNode, groupId: string, node: TreeNode): Refusal {
  const group = locate(root, groupId)?.node;
  if (!group || !isGroup(group)) return "choose a group to insert into";
  if (group.kind === "not") return "a not group holds exactly one node";
  if (leafCount(root) + leafCount(node) > MAX_LEAVES) return leafRefusal;
  if (levelOf(root, groupId) + heightOf(node) > MAX_DEPTH) return depthRefusal;
  return null;
}

/** Whether the node `id` may be wrapped in a new group. */
export function canWrap(root: TreeNode, id: string): Refusal {
  const found = locate(root, id);
  if (!found) return "unknown node";
  return found.ancestors.length + 1 + heightOf(found.node) > MAX_DEPTH ? depthRefusal : null;
}

/** Whether the group `id` may be replaced by its children. */
export function canUnwrap(root: TreeNode, id: string): Refusal {
  const found = locate(root, id);
  if (!found || !isGroup(found.node)) return "only a group can be unwrapped";
  const parent = found.ancestors.at(-1);
  if (found.node.children.length === 1) return null;
  if (!parent) {
    return "the top group keeps its children together: it can be unwrapped when it has one child";
  }
  if (parent.kind === "not") return "a not group holds exactly one node";
  return null;
}

/** Whether the group `id` may become a group of `kind`. */
export function canSetKind(root: TreeNode, id: string, kind: GroupKind): Refusal {
  const node = locate(root, id)?.node;
  if (!node || !isGroup(node)) return "only a group has a kind";
  if (kind === "not" && node.kind !== "not" && node.children.length !== 1) {
    return "not negates exactly one node: leave one node in the group first";
  }
  return null;
}

/** Adds `node` to the group `groupId`, at `index` (default: the end). */
export function insertNode(
  root: TreeNode,
  groupId: string,
  node: TreeNode,
  index?: number,
): TreeNode {
  return changeChildren(root, groupId, (children) => {
    const at = index === undefined
      ? children.length
      : Math.max(0, Math.min(index, children.length));
    return [...children.slice(0, at), node, ...children.slice(at)];
  });
}

/**
 * Removes the node `id`. A `not` whose only child goes is removed with it; removing the root
 * leaves an empty `all` (which matches every event).
 */
export function removeNode(root: TreeNode, id: string): TreeNode {
  const found = locate(root, id);
  if (!found) return root;
  const parent = found.ancestors.at(-1);
  if (!parent) return { id: root.id, kind: "all", children: [] };
  if (parent.kind === "not") return removeNode(root, parent.id);
  return changeChildren(root, parent.id, (children) => children.filter((child) => child.id !== id));
}

/** Puts the node `id` inside a new group of `kind` (with id `groupId`) in its place. */
export function wrapNode(root: TreeNode, id: string, kind: GroupKind, groupId: string): TreeNode {
  return replaceNode(root, id, (node) => ({ id: groupId, kind, children: [node] }));
}

/** Replaces the group `id` by its children (see `canUnwrap`). */
export function unwrapNode(root: TreeNode, id: string): TreeNode {
  const found = locate(root, id);
  if (!found || !isGroup(found.node) || canUnwrap(root, id)) return root;
  const group = found.node;
  const parent = found.ancestors.at(-1);
  if (!parent || parent.kind === "not") return replaceNode(root, id, () => group.children[0]);
  return changeChildren(
    root,
    parent.id,
    (children) => children.flatMap((child) => child.id === id ? group.children : [child]),
  );
}

/** Changes the kind of the group `id` (see `canSetKind`). */
export function setGroupKind(root: TreeNode, id: string, kind: GroupKind): TreeNode {
  if (canSetKind(root, id, kind)) return root;
  return replaceNode(root, id, (node) => isGroup(node) ? { ...node, kind } : node);
}

/** Moves the node `id` to position `index` among its siblings. */
export function moveNodeTo(root: TreeNode, id: string, index: number): TreeNode {
  const found = locate(root, id);
  const parent = found?.ancestors.at(-1);
  if (!found || !parent) return root;
  const to = Math.max(0, Math.min(index, parent.children.length - 1));
  if (to === found.index) return root;
  return changeChildren(root, parent.id, (children) => {
    const rest = children.filter((child) => child.id !== id);
    return [...rest.slice(0, to), found.node, ...rest.slice(to)];
  });
}

/** Replaces the filter of the leaf `id`. */
export function setLeaf(root: TreeNode, id: string, filter: LeafFilter): TreeNode {
  return replaceNode(root, id, (node) => node.kind === "leaf" ? { ...node, filter } : node);
}

/** Every node of the tree, depth first, with its path in the stored form (`["all", 0]`). */
export function* walkTree(
  node: TreeNode,
  path: (string | number)[] = [],
): Generator<{ node: TreeNode; path: (string | number)[] }> {
  yield { node, path };
  if (!isGroup(node)) return;
  if (node.kind === "not") {
    yield* walkTree(node.children[0], [...path, "not"]);
    return;
  }
  for (const [index, child] of node.children.entries()) {
    yield* walkTree(child, [...path, node.kind, index]);
  }
}
