import type { Explanation } from "../../lib/routing/explain.ts";
import { nodeLine, nodeName } from "../../lib/routing/explain_words.ts";
import { PlainSentence } from "./PlainSentence.tsx";

function Mark(props: { matched: boolean }) {
  return (
    <span class={props.matched ? "sy-mark-yes" : "sy-mark-no"}>
      {props.matched ? "✓ matches" : "✗ no match"}
    </span>
  );
}

/**
 * A route's explanation as a nested list that mirrors its filter tree: each node named as the
 * route editor names it, its verdict in words (never by colour alone) and the reason, with the
 * values a field path found.
 */
export function ExplanationTree(props: { node: Explanation }) {
  const { node } = props;
  const children = node.kind === "all" || node.kind === "any"
    ? node.children
    : node.kind === "not"
    ? [node.child]
    : [];
  return (
    <li class="min-w-0">
      <div class="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <Mark matched={node.matched} />
        <code class="break-all text-xs font-semibold">{nodeName(node)}</code>
      </div>
      <p class="sy-reason">
        <PlainSentence text={nodeLine(node)} />
      </p>
      {children.length > 0 && (
        <ul class="mt-2 flex flex-col gap-2 border-l-2 border-slate-200 pl-3 dark:border-slate-700">
          {children.map((child, index) => <ExplanationTree key={index} node={child} />)}
        </ul>
      )}
    </li>
  );
}
