/**
 * The route editor's "Noise control" section (docs/noise.md): gather bursts into a digest,
 * keep a pull request's or issue's events in one thread, and quiet hours. Collapsed until
 * opened; every option is off until switched on. Checked as you type with the API's rules.
 */
import type { NoiseForm } from "../../lib/console/noise_form.ts";
import { noiseOptionsOf } from "../../lib/console/noise_form.ts";
import { FormField } from "../forms/FormField.tsx";
import { FIELD, MUTED, PANEL, Switch } from "./ui.tsx";

/** A text field of the form: which value it edits, and where the API names its problem. */
interface NoiseField {
  key: "windowSeconds" | "threshold" | "start" | "end" | "timeZone";
  id: string;
  label: string;
  type: "number" | "time" | "text";
  problem: string;
}

const DIGEST_FIELDS: NoiseField[] = [
  {
    key: "windowSeconds",
    id: "noise-window",
    label: "Window (seconds)",
    type: "number",
    problem: "digest.windowSeconds",
  },
  {
    key: "threshold",
    id: "noise-threshold",
    label: "Messages before the digest",
    type: "number",
    problem: "digest.threshold",
  },
];

const QUIET_FIELDS: NoiseField[] = [
  { key: "start", id: "noise-start", label: "From", type: "time", problem: "quietHours.start" },
  { key: "end", id: "noise-end", label: "Until", type: "time", problem: "quietHours.end" },
  {
    key: "timeZone",
    id: "noise-zone",
    label: "Time zone",
    type: "text",
    problem: "quietHours.timeZone",
  },
];

/** The "Noise control" section. */
export function NoiseEditor(
  props: { form: NoiseForm; readOnly: boolean; onForm: (form: NoiseForm) => void },
) {
  const { form } = props;
  const { problems } = noiseOptionsOf(form);
  const set = (patch: Partial<NoiseForm>) => props.onForm({ ...form, ...patch });
  const input = (field: NoiseField) => (
    <FormField
      key={field.key}
      look={FIELD}
      id={field.id}
      label={field.label}
      type={field.type}
      value={form[field.key]}
      problem={problems.get(field.problem)}
      disabled={props.readOnly}
      onValue={(value) => set({ [field.key]: value })}
    />
  );
  const toggle = (key: "digest" | "threads" | "quiet", label: string) => (
    <Switch
      checked={form[key]}
      label={label}
      showLabel
      disabled={props.readOnly}
      testId={`noise-${key}`}
      onChange={(on) => set({ [key]: on })}
    />
  );
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
            {toggle("digest", "Gather bursts into a digest")}
            {form.digest && (
              <div class="grid grid-cols-2 gap-3">
                {DIGEST_FIELDS.map(input)}
              </div>
            )}
          </div>
          {toggle("threads", "Thread each pull request's and issue's events under its first card")}
          <div class="flex flex-col gap-2">
            {toggle("quiet", "Quiet hours: hold events and post one digest when they end")}
            {form.quiet && (
              <div class="grid grid-cols-3 gap-3">
                {QUIET_FIELDS.map(input)}
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
