/**
 * A node's verdict against the sample event: a badge (matched, no match, not evaluated) and
 * the reason the explanation gives, in words, never by color alone.
 */
import type { Verdict } from "../../../lib/console/tree_check.ts";

/** The badge of a verdict. */
export function VerdictBadge(props: { verdict: Verdict | undefined; nodeId: string }) {
  const verdict = props.verdict;
  if (!verdict) return null;
  const [text, color] = verdict.matched === null
    ? ["not evaluated", "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200"]
    : verdict.matched
    ? ["✓ matches", "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/70 dark:text-emerald-100"]
    : ["✗ no match", "bg-red-100 text-red-900 dark:bg-red-900/70 dark:text-red-100"];
  return (
    <span
      data-testid="verdict"
      data-matched={verdict.matched === null ? "unknown" : String(verdict.matched)}
      aria-describedby={`${props.nodeId}-reason`}
      class={`inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-semibold ${color}`}
    >
      {text}
    </span>
  );
}

/** The reason of a verdict, under the node. */
export function VerdictReason(props: { verdict: Verdict | undefined; nodeId: string }) {
  const verdict = props.verdict;
  if (!verdict) return null;
  return (
    <p
      id={`${props.nodeId}-reason`}
      data-testid="reason"
      class="mt-1 break-words font-mono text-xs text-slate-700 dark:text-slate-300"
    >
      {verdict.reason}
    </p>
  );
}
