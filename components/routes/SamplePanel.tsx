/**
 * The sample event the filter tree is explained against: one of the bundled GitHub payloads,
 * one of the group's recent real events, or a pasted one, with the event kind and action inferred from it (and changeable).
 */
import { PASTED_SAMPLE, type Sample } from "../../lib/console/samples.ts";
import { ERROR, INPUT, LABEL, MUTED } from "./ui.tsx";

/** The value of the sample menu's "your own payload" entry. */
export const PASTED = PASTED_SAMPLE;

/** The sample menu's value for a recent event of the group. */
export function recentSource(eventId: string): string {
  return `event:${eventId}`;
}

/** The event id a sample menu value names, when it is a recent event. */
export function recentEventOf(source: string): string | null {
  return source.startsWith("event:") ? source.slice("event:".length) : null;
}

/** The sample's form. */
export function SamplePanel(
  props: {
    samples: readonly Sample[];
    /** The group's recent events (newest first). */
    recent: readonly { id: string; label: string }[];
    source: string;
    text: string;
    kind: string;
    action: string;
    parseError: string | null;
    loading: boolean;
    onSource: (source: string) => void;
    onText: (text: string) => void;
    onKind: (kind: string) => void;
    onAction: (action: string) => void;
  },
) {
  return (
    <div class="flex flex-col gap-3">
      <label class="flex flex-col gap-0.5">
        <span class={LABEL}>Sample</span>
        <select
          id="sample-source"
          class={INPUT}
          value={props.source}
          onChange={(event) => props.onSource(event.currentTarget.value)}
        >
          <optgroup label="Bundled GitHub samples">
            {props.samples.map((sample) => (
              <option key={sample.id} value={sample.id}>
                {sample.label} — {sample.action ? `${sample.kind}.${sample.action}` : sample.kind}
              </option>
            ))}
          </optgroup>
          {props.recent.length > 0 && (
            <optgroup label="Recent events of this group">
              {props.recent.map((event) => (
                <option key={event.id} value={recentSource(event.id)}>{event.label}</option>
              ))}
            </optgroup>
          )}
          <option value={PASTED}>Your own payload (paste below)</option>
        </select>
      </label>
      <div class="flex gap-2">
        <label class="flex min-w-0 flex-1 flex-col gap-0.5">
          <span class={LABEL}>Event kind</span>
          <input
            id="sample-kind"
            class={`${INPUT} font-mono`}
            list="event-kinds"
            spellcheck={false}
            autocomplete="off"
            value={props.kind}
            onInput={(event) => props.onKind(event.currentTarget.value.trim())}
          />
        </label>
        <label class="flex min-w-0 flex-1 flex-col gap-0.5">
          <span class={LABEL}>Action</span>
          <input
            id="sample-action"
            class={`${INPUT} font-mono`}
            spellcheck={false}
            autocomplete="off"
            placeholder="none"
            value={props.action}
            onInput={(event) => props.onAction(event.currentTarget.value.trim())}
          />
        </label>
      </div>
      <label class="flex flex-col gap-0.5">
        <span class={LABEL}>Payload (JSON)</span>
        <textarea
          id="sample-payload"
          data-testid="sample-payload"
          class={`${INPUT} h-40 font-mono text-xs`}
          spellcheck={false}
          value={props.loading ? "Loading…" : props.text}
          disabled={props.loading}
          aria-invalid={props.parseError ? true : undefined}
          aria-describedby={props.parseError ? "sample-error" : "sample-hint"}
          placeholder='{"action": "opened", "pull_request": {…}}'
          onInput={(event) => props.onText(event.currentTarget.value)}
        />
      </label>
      {props.parseError
        ? <p id="sample-error" class={ERROR}>{props.parseError}</p>
        : (
          <p id="sample-hint" class={`text-xs ${MUTED}`}>
            Kind and action are read from the payload; change them to try another event.
          </p>
        )}
    </div>
  );
}
