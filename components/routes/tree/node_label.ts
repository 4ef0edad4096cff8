/** Names and tags of filter-tree nodes, for the rows' labels and buttons. */
import {
  type GroupKind,
  isGroup,
  toFilterNode,
  type TreeNode,
} from "../../../lib/console/filter_tree.ts";
import { summarizeFilter } from "../../../lib/console/route_summary.ts";

/** What each group kind means, as its choice in the kind menu says it. */
export const KIND_NAMES: Record<GroupKind, string> = {
  all: "All of these match",
  any: "Any of these matches",
  not: "Not: this must not match",
};

/** The short tag of each row's kind. */
export const KIND_TAGS: Record<GroupKind | "event" | "field", string> = {
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

/** The tag a row shows: its group kind or its leaf type. */
export function tagOf(node: TreeNode): keyof typeof KIND_TAGS {
  return isGroup(node) ? node.kind : node.filter.type === "event" ? "event" : "field";
}
