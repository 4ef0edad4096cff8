/**
 * An event filter's fields: one or more event patterns (any of them matches), each picked as
 * a kind and an action from the known lists (`*` is a wildcard, an empty action means every
 * action) or typed freely.
 */
import { joinEventPattern, splitEventPattern } from "../../../lib/console/event_catalog.ts";
import type { LeafFilter } from "../../../lib/console/filter_tree.ts";
import type { NodeIssue } from "../../../lib/console/tree_check.ts";
import { BUTTON, ERROR, INPUT, LABEL } from "../ui.tsx";
import { controlId } from "./tree_api.ts";

/** The datalist id of a kind's actions. */
export function actionListId(kind: string): string {
  return `event-actions-${kind.toLowerCase().replace(/[^a-z0-9_]/g, "")}`;
}

function patternsOf(filter: LeafFilter): string[] {
  if (typeof filter.value === "string") return [filter.value];
  if (Array.isArray(filter.value) && filter.value.length > 0) return filter.value.map(String);
  return [""];
}

/** The problem of pattern `index` (`value` or `value[index]`). */
function problemOf(issues: NodeIssue[], index: number, count: number): string | undefined {
  return issues.find((issue) =>
    issue.field === "value" &&
    (count === 1 ? true : issue.message.startsWith(`[${index}]: `))
  )?.message.replace(/^\[\d+\]: /, "");
}

/** The fields of an event leaf. */
export function EventLeaf(
  props: {
    nodeId: string;
    filter: LeafFilter;
    issues: NodeIssue[];
    readOnly: boolean;
    sampleEvent: string | null;
    onChange: (filter: LeafFilter, focus?: string) => void;
  },
) {
  const patterns = patternsOf(props.filter);
  const write = (next: string[], focus?: string) =>
    props.onChange({ ...props.filter, value: next.length === 1 ? next[0] : next }, focus);
  return (
    <div class="mt-2 flex flex-col gap-2">
      {patterns.map((pattern, index) => {
        const { kind, action } = splitEventPattern(pattern);
        const problem = problemOf(props.issues, index, patterns.length);
        const errorId = `${props.nodeId}-event-error-${index}`;
        const suffix = patterns.length > 1 ? ` ${index + 1}` : "";
        return (
          <div key={index} class="flex flex-wrap items-end gap-2">
            {index > 0 && (
              <span class="pb-1.5 text-xs font-semibold uppercase text-slate-600 dark:text-slate-300">
                or
              </span>
            )}
            <label class="flex min-w-32 flex-1 flex-col gap-0.5">
              <span class={LABEL}>Event kind{suffix}</span>
              <input
                id={controlId.eventKind(props.nodeId, index)}
                class={`${INPUT} font-mono`}
                list="event-kinds"
                spellcheck={false}
                autocomplete="off"
                placeholder="pull_request"
                value={kind}
                disabled={props.readOnly}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? errorId : undefined}
                onInput={(event) => {
                  const next = [...patterns];
                  next[index] = joinEventPattern(event.currentTarget.value.trim(), action);
                  write(next);
                }}
              />
            </label>
            <label class="flex min-w-32 flex-1 flex-col gap-0.5">
              <span class={LABEL}>Action{suffix}</span>
              <input
                id={controlId.eventAction(props.nodeId, index)}
                class={`${INPUT} font-mono`}
                list={actionListId(kind)}
                spellcheck={false}
                autocomplete="off"
                placeholder="any action"
                value={action}
                disabled={props.readOnly}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? errorId : undefined}
                onInput={(event) => {
                  const next = [...patterns];
                  next[index] = joinEventPattern(kind, event.currentTarget.value.trim());
                  write(next);
                }}
              />
            </label>
            {!props.readOnly && patterns.length > 1 && (
              <button
                type="button"
                class={BUTTON.icon}
                aria-label={`Remove event ${pattern || index + 1}`}
                onClick={() =>
                  write(
                    patterns.filter((_, i) => i !== index),
                    controlId.eventKind(props.nodeId, Math.max(0, index - 1)),
                  )}
              >
                ×
              </button>
            )}
            {problem && <p id={errorId} class={`w-full ${ERROR}`}>{problem}</p>}
          </div>
        );
      })}
      {!props.readOnly && (
        <div class="flex flex-wrap gap-1">
          <button
            type="button"
            class={BUTTON.link}
            onClick={() =>
              write(
                [...patterns, props.sampleEvent ?? ""],
                controlId.eventKind(props.nodeId, patterns.length),
              )}
          >
            + or another event
          </button>
          {props.sampleEvent && !patterns.includes(props.sampleEvent) && (
            <button
              type="button"
              class={BUTTON.link}
              onClick={() => write([props.sampleEvent!])}
            >
              use the sample's event ({props.sampleEvent})
            </button>
          )}
        </div>
      )}
    </div>
  );
}
