/**
 * The route editor's "Noise control" section (docs/noise.md): gather bursts into a digest,
 * keep a pull request's or issue's events in one thread, and quiet hours. Collapsed until
 * opened; every option is off until switched on. Checked as you type with the API's rules.
 */
import type { NoiseForm } from "../../lib/console/noise_form.ts";
import { noiseOptionsOf } from "../../lib/console/noise_form.ts";
import { ERROR, INPUT, LABEL, MUTED, PANEL, Switch } from "./ui.tsx";

function Field(
  props: {
    id: string;
    label: string;
    value: string;
    type?: string;
    problem?: string;
    readOnly: boolean;
    onValue: (value: string) => void;
  },
) {
  return (
    <div class="flex flex-col gap-0.5">
      <label for={props.id} class={LABEL}>{props.label}</label>
      <input
        id={props.id}
        type={props.type ?? "text"}
        class={INPUT}
        value={props.value}
        disabled={props.readOnly}
        aria-invalid={props.problem ? true : undefined}
        aria-describedby={props.problem ? `${props.id}-error` : undefined}
        onInput={(event) => props.onValue(event.currentTarget.value)}
      />
      {props.problem && <span id={`${props.id}-error`} class={ERROR}>{props.problem}</span>}
    </div>
  );
}

/** The "Noise control" section. */
export function NoiseEditor(
  props: { form: NoiseForm; readOnly: boolean; onForm: (form: NoiseForm) => void },
) {
  const { form } = props;
  const { problems } = noiseOptionsOf(form);
  const set = (patch: Partial<NoiseForm>) => props.onForm({ ...form, ...patch });
  const inUse = [form.digest && "digest", form.threads && "threads", form.quiet && "quiet hours"]
    .filter(Boolean).join(", ");
  return (
    <section aria-label="Noise control" class={`${PANEL} p-4 sm:p-5`}>
      <details data-testid="noise-editor" open={inUse !== "" || undefined}>
        <summary class="w-fit cursor-pointer text-base font-semibold">
          Noise control <span class={`text-xs font-normal ${MUTED}`}>({inUse || "off"})</span>
        </summary>
        <div class="mt-3 flex flex-col gap-4">
          <div class="flex flex-col gap-2">
            <Switch
              checked={form.digest}
              label="Gather bursts into a digest"
              showLabel
              disabled={props.readOnly}
              testId="noise-digest"
              onChange={(digest) => set({ digest })}
            />
            {form.digest && (
              <div class="grid grid-cols-2 gap-3">
                <Field
                  id="noise-window"
                  label="Window (seconds)"
                  type="number"
                  value={form.windowSeconds}
                  problem={problems.get("digest.windowSeconds")}
                  readOnly={props.readOnly}
                  onValue={(windowSeconds) => set({ windowSeconds })}
                />
                <Field
                  id="noise-threshold"
                  label="Messages before the digest"
                  type="number"
                  value={form.threshold}
                  problem={problems.get("digest.threshold")}
                  readOnly={props.readOnly}
                  onValue={(threshold) => set({ threshold })}
                />
              </div>
            )}
          </div>
          <Switch
            checked={form.threads}
            label="Thread each pull request's and issue's events under its first card"
            showLabel
            disabled={props.readOnly}
            testId="noise-threads"
            onChange={(threads) => set({ threads })}
          />
          <div class="flex flex-col gap-2">
            <Switch
              checked={form.quiet}
              label="Quiet hours: hold events and post one digest when they end"
              showLabel
              disabled={props.readOnly}
              testId="noise-quiet"
              onChange={(quiet) => set({ quiet })}
            />
            {form.quiet && (
              <div class="grid grid-cols-3 gap-3">
                <Field
                  id="noise-start"
                  label="From"
                  type="time"
                  value={form.start}
                  problem={problems.get("quietHours.start")}
                  readOnly={props.readOnly}
                  onValue={(start) => set({ start })}
                />
                <Field
                  id="noise-end"
                  label="Until"
                  type="time"
                  value={form.end}
                  problem={problems.get("quietHours.end")}
                  readOnly={props.readOnly}
                  onValue={(end) => set({ end })}
                />
                <Field
                  id="noise-zone"
                  label="Time zone"
                  value={form.timeZone}
                  problem={problems.get("quietHours.timeZone")}
                  readOnly={props.readOnly}
                  onValue={(timeZone) => set({ timeZone })}
                />
                {form.urgent !== undefined && (
                  <span class={`col-span-3 text-xs ${MUTED}`}>
                    Events matching the route's urgent filter are still sent at once.
                  </span>
                )}
              </div>
            )}
          </div>
        </div>
      </details>
    </section>
  );
}
