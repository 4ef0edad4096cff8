import type { ReplayGroupChoice } from "../../lib/admin/replay_choices.ts";
import type { ReplayDraft } from "../../lib/console/replay_form.ts";
import { INPUT, LABEL, MUTED } from "./ui.ts";

const STATUSES = [
  ["undelivered", "Failed or dead"],
  ["failed", "Failed"],
  ["dead", "Dead"],
  ["ok", "Delivered"],
  ["any", "Any"],
] as const;

/** A choice within the chosen group, first `any`: no narrowing. */
function NarrowingSelect(props: {
  label: string;
  value: string;
  any: string;
  choices: readonly (readonly [value: string, text: string])[] | undefined;
  onChange: (event: Event) => void;
}) {
  return (
    <label class={LABEL}>
      {props.label}
      <select class={INPUT} value={props.value} onChange={props.onChange}>
        <option value="">{props.any}</option>
        {props.choices?.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
      </select>
    </label>
  );
}

/** The filter and mode of a bulk replay: controlled fields over a {@link ReplayDraft}. */
export function ReplayFields(props: {
  draft: ReplayDraft;
  groups: readonly ReplayGroupChoice[];
  onChange: (draft: ReplayDraft) => void;
}) {
  const { draft, onChange } = props;
  const group = props.groups.find((choice) => choice.id === draft.groupId);
  const set = (field: keyof ReplayDraft) => (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const value = input.type === "checkbox" ? input.checked : input.value;
    onChange({ ...draft, [field]: value });
  };
  return (
    <div class="grid gap-3">
      <div class="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <label class={LABEL}>
          Group
          <select
            class={INPUT}
            value={draft.groupId}
            onChange={(event) =>
              onChange({
                ...draft,
                groupId: (event.currentTarget as HTMLSelectElement).value,
                routeId: "",
                target: "",
              })}
          >
            {props.groups.map((choice) => (
              <option key={choice.id} value={choice.id}>{choice.name}</option>
            ))}
          </select>
        </label>
        <NarrowingSelect
          label="Target"
          value={draft.target}
          any="Any channel or chat"
          choices={group?.targets.map((target) => [target.key, target.label] as const)}
          onChange={set("target")}
        />
        <NarrowingSelect
          label="Route"
          value={draft.routeId}
          any="Any route"
          choices={group?.routes.map((route) => [route.id, route.name] as const)}
          onChange={set("routeId")}
        />
        <label class={LABEL}>
          Status
          <select class={INPUT} value={draft.status} onChange={set("status")}>
            {STATUSES.map(([value, words]) => <option key={value} value={value}>{words}</option>)}
          </select>
        </label>
        <label class={LABEL}>
          Event
          <input
            class={INPUT}
            value={draft.event}
            maxLength={100}
            placeholder="push, pull_request.opened…"
            onInput={set("event")}
          />
        </label>
        <label class={LABEL}>
          From (UTC)
          <input class={INPUT} type="datetime-local" value={draft.from} onInput={set("from")} />
        </label>
        <label class={LABEL}>
          To (UTC)
          <input class={INPUT} type="datetime-local" value={draft.to} onInput={set("to")} />
        </label>
      </div>
      <fieldset class="grid gap-2">
        <legend class="mb-1 text-xs font-medium text-slate-700 dark:text-slate-300">Send</legend>
        <label class="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name="replay-mode"
            value="messages"
            checked={draft.mode === "messages"}
            onChange={() => onChange({ ...draft, mode: "messages", includeDelivered: false })}
          />
          <span>
            The same messages again{" "}
            <span class={MUTED}>(as they were rendered; only failed and dead ones)</span>
          </span>
        </label>
        <label class="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name="replay-mode"
            value="routes"
            checked={draft.mode === "routes"}
            onChange={() => onChange({ ...draft, mode: "routes" })}
          />
          <span>
            The events through the current routes{" "}
            <span class={MUTED}>(each event once, as the routes are now)</span>
          </span>
        </label>
        <label class="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            checked={draft.includeDelivered}
            disabled={draft.mode !== "routes"}
            onChange={set("includeDelivered")}
          />
          <span>
            Include events that were delivered{" "}
            <span class={MUTED}>(they are sent again: only with the current routes)</span>
          </span>
        </label>
      </fieldset>
    </div>
  );
}
