/**
 * The filter-tree editor's model (`lib/console/filter_tree.ts`) and what its rows show
 * (`lib/console/tree_check.ts`): conversion both ways, every edit, the depth and leaf limits,
 * problems filed under the node that causes them, and verdicts that agree with the matcher.
 */
import assert from "node:assert/strict";
import {
  canInsert,
  canSetKind,
  canUnwrap,
  canWrap,
  cloneNode,
  fromFilterNode,
  insertNode,
  leafCount,
  MAX_DEPTH,
  MAX_LEAVES,
  moveNodeTo,
  NodeIds,
  removeNode,
  setGroupKind,
  setLeaf,
  toFilterNode,
  type TreeNode,
  TreeShapeError,
  unwrapNode,
  wrapNode,
} from "../../lib/console/filter_tree.ts";
import { checkTree, explainTree } from "../../lib/console/tree_check.ts";
import { explain } from "../../lib/routing/explain.ts";
import type { FilterNode } from "../../lib/types.ts";

const PUSH: FilterNode = { type: "event", value: "push" };
const OPENED: FilterNode = { type: "event", value: "pull_request.opened" };
const BUG: FilterNode = { type: "field", path: "labels[*].name", value: "bug" };

function treeOf(node: FilterNode): { tree: TreeNode; ids: NodeIds } {
  const ids = new NodeIds();
  return { tree: fromFilterNode(node, ids), ids };
}

function idAt(tree: TreeNode, ...indexes: number[]): string {
  let node = tree;
  for (const index of indexes) {
    assert.ok(node.kind !== "leaf");
    node = node.children[index];
  }
  return node.id;
}

Deno.test("filter tree: a stored tree converts to the editor's tree and back unchanged", () => {
  const node: FilterNode = { all: [OPENED, { any: [BUG, { not: PUSH }] }, { all: [] }] };
  const { tree } = treeOf(node);
  assert.deepEqual(toFilterNode(tree), node);
  assert.equal(leafCount(tree), 3);
  const ids = new Set<string>();
  const collect = (n: TreeNode) => {
    ids.add(n.id);
    if (n.kind !== "leaf") n.children.forEach(collect);
  };
  collect(tree);
  assert.equal(ids.size, 7, "every node has its own id");
  assert.deepEqual(toFilterNode(treeOf(PUSH).tree), PUSH, "a lone leaf stays a leaf");
});

Deno.test("filter tree: JSON without a tree's shape is refused naming the place", () => {
  const refuse = (value: unknown, message: RegExp) =>
    assert.throws(() => fromFilterNode(value, new NodeIds()), (error: Error) => {
      assert.ok(error instanceof TreeShapeError);
      assert.match(error.message, message);
      return true;
    });
  refuse([], /the tree: expected an object/);
  refuse({ all: [], any: [] }, /exactly one of type, all, any or not/);
  refuse({ all: [{ any: "x" }] }, /^all\[0\]\.any: must be a list/);
  refuse({ not: { type: "other" } }, /^not\.type: must be "event" or "field"/);
  let deep: unknown = PUSH;
  for (let i = 0; i < 40; i++) deep = { not: deep };
  refuse(deep, /nested too deeply/);
});

Deno.test("filter tree: leaves keep what they hold, invalid values included", () => {
  const odd = { type: "field", path: "x", op: "nope", value: [1], extra: true };
  const { tree } = treeOf({ all: [odd as unknown as FilterNode] });
  assert.deepEqual(toFilterNode(tree), { all: [odd] });
});

Deno.test("filter tree: edits add, remove, wrap, unwrap, change kind and move", () => {
  const { tree, ids } = treeOf({ all: [OPENED, BUG] });
  const opened = idAt(tree, 0);
  const bug = idAt(tree, 1);

  const added = insertNode(tree, tree.id, { id: ids.next(), kind: "leaf", filter: { ...PUSH } }, 1);
  assert.deepEqual(toFilterNode(added), { all: [OPENED, PUSH, BUG] });
  assert.deepEqual(toFilterNode(tree), { all: [OPENED, BUG] }, "the old tree is untouched");

  assert.deepEqual(toFilterNode(moveNodeTo(tree, bug, 0)), { all: [BUG, OPENED] });
  assert.deepEqual(toFilterNode(removeNode(tree, opened)), { all: [BUG] });

  const wrapped = wrapNode(tree, bug, "any", ids.next());
  assert.deepEqual(toFilterNode(wrapped), { all: [OPENED, { any: [BUG] }] });
  const group = idAt(wrapped, 1);
  assert.deepEqual(toFilterNode(unwrapNode(wrapped, group)), { all: [OPENED, BUG] });
  assert.deepEqual(toFilterNode(setGroupKind(wrapped, group, "not")), {
    all: [OPENED, { not: BUG }],
  });

  assert.deepEqual(toFilterNode(setGroupKind(tree, tree.id, "any")), { any: [OPENED, BUG] });
  assert.equal(setGroupKind(tree, tree.id, "not"), tree, "not takes exactly one child");
  assert.match(canSetKind(tree, tree.id, "not") ?? "", /exactly one node/);

  assert.deepEqual(toFilterNode(setLeaf(tree, bug, { ...BUG, value: "crash" })), {
    all: [OPENED, { ...BUG, value: "crash" }],
  });
});

Deno.test("filter tree: removing a not's child removes the not; removing the root empties it", () => {
  const { tree } = treeOf({ all: [OPENED, { not: BUG }] });
  assert.deepEqual(toFilterNode(removeNode(tree, idAt(tree, 1, 0))), { all: [OPENED] });
  const cleared = removeNode(tree, tree.id);
  assert.deepEqual(toFilterNode(cleared), { all: [] });
  assert.equal(cleared.id, tree.id);
});

Deno.test("filter tree: unwrapping puts the children in the group's place, when it can", () => {
  const { tree } = treeOf({ all: [OPENED, { any: [BUG, PUSH] }] });
  const inner = idAt(tree, 1);
  assert.deepEqual(toFilterNode(unwrapNode(tree, inner)), { all: [OPENED, BUG, PUSH] });
  assert.match(canUnwrap(tree, tree.id) ?? "", /when it has one child/);
  assert.equal(unwrapNode(tree, tree.id), tree);
  const { tree: single } = treeOf({ not: { any: [BUG, PUSH] } });
  assert.match(canUnwrap(single, idAt(single, 0)) ?? "", /exactly one node/);
  const { tree: lone } = treeOf({ all: [BUG] });
  assert.deepEqual(toFilterNode(unwrapNode(lone, lone.id)), BUG, "a one-child root unwraps");
});

Deno.test("filter tree: the depth and leaf limits are known before an edit breaks them", () => {
  let deep: FilterNode = PUSH;
  for (let level = 1; level < MAX_DEPTH; level++) deep = { all: [deep] };
  const { tree, ids } = treeOf(deep);
  const leaf = { id: "x", kind: "leaf" as const, filter: { ...PUSH } };
  let deepest = tree;
  while (deepest.kind !== "leaf") deepest = deepest.children[0];
  assert.match(canWrap(tree, deepest.id) ?? "", /at most 8 levels/);
  assert.equal(canWrap(treeOf({ all: [PUSH] }).tree, tree.id), null);
  const parentOfLeaf = idAt(tree, ...Array(MAX_DEPTH - 2).fill(0));
  assert.equal(canInsert(tree, parentOfLeaf, leaf), null, "a sibling leaf still fits");
  assert.match(
    canInsert(tree, parentOfLeaf, { id: "g", kind: "all", children: [leaf] }) ?? "",
    /levels/,
  );

  const full = treeOf({ all: Array.from({ length: MAX_LEAVES }, () => PUSH) }).tree;
  assert.match(canInsert(full, full.id, leaf) ?? "", /at most 64 filters/);
  const almost = treeOf({ all: Array.from({ length: MAX_LEAVES - 1 }, () => PUSH) }).tree;
  assert.equal(canInsert(almost, almost.id, leaf), null);
  assert.match(
    canInsert(almost, almost.id, cloneNode(treeOf({ all: [PUSH, PUSH] }).tree, ids)) ?? "",
    /at most 64 filters/,
  );
});

Deno.test("filter tree: problems are filed under the node and field that cause them", () => {
  const { tree } = treeOf({
    all: [
      { type: "event", value: ["push", "bad name!"] },
      { not: { type: "field", path: "a.", op: "regex", value: "(" } },
    ],
  });
  const issues = checkTree(tree);
  const event = idAt(tree, 0);
  const field = idAt(tree, 1, 0);
  assert.deepEqual(issues.byNode.get(event)?.map((i) => [i.field, i.message.slice(0, 4)]), [
    ["value", "[1]:"],
  ]);
  assert.deepEqual(issues.byNode.get(field)?.map((i) => i.field), ["path", "value"]);
  assert.deepEqual(issues.tree, []);
  const many = treeOf({ all: Array.from({ length: MAX_LEAVES + 1 }, () => PUSH) }).tree;
  assert.match(checkTree(many).tree[0], /too many leaves: 65/);
});

Deno.test("filter tree: verdicts match the matcher's explanation, node by node", () => {
  const node: FilterNode = { all: [OPENED, { any: [BUG, { not: PUSH }] }] };
  const { tree } = treeOf(node);
  const sample = { kind: "pull_request", action: "opened", payload: { labels: [{ name: "bug" }] } };
  const result = explainTree(tree, checkTree(tree), sample);
  assert.ok(result.ok);
  const expected = explain(node, sample);
  assert.equal(result.matched, expected.matched);
  assert.equal(result.byNode.get(tree.id)?.reason, expected.reason);
  const bug = result.byNode.get(idAt(tree, 1, 0));
  assert.deepEqual(bug, {
    matched: true,
    reason: 'labels[*].name eq "bug": value "bug" equals it',
    values: ["bug"],
    valueCount: 1,
  });
  assert.equal(result.byNode.get(idAt(tree, 1, 1))?.matched, true, "not push");
  assert.equal(result.byNode.get(idAt(tree, 1, 1, 0))?.matched, false);
});

Deno.test("filter tree: an invalid leaf is not evaluated, and the rest still is", () => {
  const { tree } = treeOf({ any: [{ type: "field", path: "x", op: "regex", value: "(" }, OPENED] });
  const result = explainTree(tree, checkTree(tree), {
    kind: "pull_request",
    action: "opened",
    payload: {},
  });
  assert.ok(result.ok);
  assert.equal(result.matched, true);
  assert.equal(result.byNode.get(idAt(tree, 0))?.matched, null);
  assert.match(result.byNode.get(idAt(tree, 0))?.reason ?? "", /not evaluated/);
  assert.equal(result.byNode.get(idAt(tree, 1))?.matched, true);
});
