/**
 * The tree's overall verdict on the sample event, in one sentence: whether this route would
 * send the event, and why in plain words (the same sentence as the event page's), with the
 * server's confirmation.
 */
import type { TreeVerdicts } from "../../lib/console/tree_check.ts";
import { whyMatched, whyNot } from "../../lib/routing/explain_words.ts";
import { PlainSentence } from "../events/PlainSentence.tsx";
import { MUTED } from "./ui.tsx";

/** The verdict banner above the tree. */
export function VerdictSummary(
  props: {
    explained: TreeVerdicts | null;
    sampleError: string | null;
    loading: boolean;
    enabled: boolean;
    fallback: boolean;
    /** Problems shown in the tree. */
    problems: number;
    /** Problems of filters added but not filled in yet (not shown until their fields are left). */
    incomplete: number;
    server: { text: string; ok: boolean } | null;
  },
) {
  const { explained } = props;
  let tone =
    "border-slate-300 bg-slate-50 text-slate-900 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100";
  let headline: string;
  let detail: string | null = null;
  let matched: boolean | null = null;
  if (props.loading) headline = "Loading the sample event…";
  else if (!explained) {
    headline = "No sample event to explain against.";
    detail = props.sampleError;
  } else if (!explained.ok) {
    headline = "The sample could not be explained.";
    detail = explained.error;
  } else if (!explained.matched && props.incomplete > 0 && props.problems === 0) {
    headline = "Fill in the new filter to see whether this route sends the sample event.";
  } else {
    matched = explained.matched;
    headline = matched
      ? "✓ This route sends the sample event"
      : "✗ This route does not send the sample event";
    detail = matched ? whyMatched(explained.explanation) : whyNot(explained.explanation);
    tone = matched
      ? "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-50"
      : "border-red-300 bg-red-50 text-red-950 dark:border-red-700 dark:bg-red-950 dark:text-red-50";
  }
  const notes = [
    props.problems > 0 &&
    `${props.problems} problem${
      props.problems === 1 ? "" : "s"
    } to fix: invalid filters are not evaluated.`,
    props.incomplete > 0 && props.problems === 0 && matched !== null &&
    "A new filter is not filled in yet, so it is not evaluated.",
    matched && !props.enabled && "The route is disabled, so it sends nothing until enabled.",
    matched && props.fallback &&
    "As a fallback it sends only when no other route of the group did.",
  ].filter(Boolean);
  return (
    <div
      data-testid="verdict-summary"
      data-matched={matched === null ? "unknown" : String(matched)}
      aria-live="polite"
      class={`rounded-md border px-3 py-2 text-sm ${tone}`}
    >
      <p class="font-semibold">{headline}</p>
      {detail && (
        <p class="mt-0.5 break-words" data-testid="verdict-sentence">
          <PlainSentence text={detail} />
        </p>
      )}
      {notes.map((note) => <p key={String(note)} class="mt-1 text-xs">{note}</p>)}
      {props.server && (
        <p
          data-testid="server-check"
          data-ok={String(props.server.ok)}
          class={`mt-1 text-xs ${props.server.ok ? "" : "font-semibold"}`}
        >
          {props.server.text}
        </p>
      )}
      {!explained && !props.loading && (
        <p class={`mt-1 text-xs ${MUTED}`}>Pick a sample or paste a payload beside the editor.</p>
      )}
    </div>
  );
}
