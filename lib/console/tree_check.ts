/**
 * What the filter-tree editor shows on each row: the validation problems of the node (the
 * same checks and messages as the API, `validateFilterNode`) and whether it matched the sample
 * event, with the reason (`explain`, the code the delivery worker's matcher shares). Invalid
 * leaves are explained as "not evaluated" so the rest of the tree still gets its verdicts
 * while a leaf is being typed. Browser-safe.
 */
import { FilterEvaluationError } from "../jsonpath/budget.ts";
import { explain, type Explanation } from "../routing/explain.ts";
import { formatIssuePath, validateFilterNode } from "../routing/validate.ts";
import type { FilterNode } from "../types.ts";
import { isGroup, toFilterNode, type TreeNode, walkTree } from "./filter_tree.ts";

/** One validation problem of a node; `field` is the leaf's key it concerns (`value`, `path`). */
export interface NodeIssue {
  field: string | null;
  message: string;
}

/** The problems of a tree: by node id, and those of the whole tree (limits). */
export interface TreeIssues {
  byNode: Map<string, NodeIssue[]>;
  tree: string[];
  count: number;
}

function startsWith(path: readonly (string | number)[], prefix: readonly (string | number)[]) {
  return prefix.length <= path.length && prefix.every((part, index) => path[index] === part);
}

/** Validates the tree and files every problem under the node that causes it. */
export function checkTree(root: TreeNode): TreeIssues {
  const issues = validateFilterNode(toFilterNode(root));
  const nodes = [...walkTree(root)];
  const byNode = new Map<string, NodeIssue[]>();
  const tree: string[] = [];
  for (const issue of issues) {
    let owner: { node: TreeNode; path: (string | number)[] } | undefined;
    for (const entry of nodes) {
      if (startsWith(issue.path, entry.path) && (!owner || entry.path.length > owner.path.length)) {
        owner = entry;
      }
    }
    if (!owner || (owner.node === root && issue.path.length === 0 && isGroup(root))) {
      tree.push(issue.message);
      continue;
    }
    const rest = issue.path.slice(owner.path.length);
    const field = owner.node.kind === "leaf" && typeof rest[0] === "string" ? rest[0] : null;
    const extra = rest.length > 1 ? `${formatIssuePath(rest.slice(1))}: ` : "";
    const list = byNode.get(owner.node.id) ?? [];
    list.push({ field, message: extra + issue.message });
    byNode.set(owner.node.id, list);
  }
  return { byNode, tree, count: issues.length };
}

/** A node's verdict against the sample event. */
export interface Verdict {
  /** `null`: the leaf is invalid and was not evaluated. */
  matched: boolean | null;
  reason: string;
  /** For a field leaf: the values its path found (at most 5) and how many there were. */
  values?: unknown[];
  valueCount?: number;
}

/** The sample event the tree is explained against. */
export interface SampleEvent {
  kind: string;
  action?: string;
  /** The payload: a JSON object, as webhooks send. */
  payload: Record<string, unknown>;
}

/** The explanation of a whole tree, by node id, or why it could not be made. */
export type TreeVerdicts =
  | { ok: true; matched: boolean; byNode: Map<string, Verdict>; explanation: Explanation }
  | { ok: false; error: string };

/** A stand-in for an invalid leaf: a node that matches nothing and cannot fail. */
const NOT_EVALUATED: FilterNode = { any: [] };

function evaluable(node: TreeNode, invalid: ReadonlySet<string>): FilterNode {
  if (node.kind === "leaf") {
    return invalid.has(node.id) ? NOT_EVALUATED : toFilterNode(node);
  }
  if (node.kind === "not") return { not: evaluable(node.children[0], invalid) };
  return { [node.kind]: node.children.map((child) => evaluable(child, invalid)) } as FilterNode;
}

/** The explanation's nodes, filed by the tree's node ids (both have the same shape). */
function verdictsOf(
  node: TreeNode,
  explanation: Explanation,
  invalid: ReadonlySet<string>,
  into = new Map<string, Verdict>(),
): Map<string, Verdict> {
  if (node.kind === "leaf" && invalid.has(node.id)) {
    into.set(node.id, { matched: null, reason: "not evaluated: fix this filter first" });
    return into;
  }
  const verdict: Verdict = { matched: explanation.matched, reason: explanation.reason };
  if (explanation.kind === "field") {
    verdict.values = explanation.values;
    verdict.valueCount = explanation.valueCount;
  }
  into.set(node.id, verdict);
  if (!isGroup(node)) return into;
  const children = explanation.kind === "not"
    ? [explanation.child]
    : "children" in explanation
    ? explanation.children
    : [];
  node.children.forEach((child, index) => {
    const explained = children[index];
    if (explained) verdictsOf(child, explained, invalid, into);
  });
  return into;
}

/** Explains the tree against the sample; invalid leaves are left out (see the module comment). */
export function explainTree(root: TreeNode, issues: TreeIssues, sample: SampleEvent): TreeVerdicts {
  const leaves = new Set(
    [...walkTree(root)].filter(({ node }) => node.kind === "leaf").map(({ node }) => node.id),
  );
  const invalid = new Set([...issues.byNode.keys()].filter((id) => leaves.has(id)));
  try {
    const explanation = explain(evaluable(root, invalid), sample);
    return {
      ok: true,
      matched: explanation.matched,
      byNode: verdictsOf(root, explanation, invalid),
      explanation,
    };
  } catch (error) {
    if (error instanceof FilterEvaluationError) {
      return { ok: false, error: `the filters could not be evaluated: ${error.message}` };
    }
    return { ok: false, error: (error as Error).message };
  }
}
