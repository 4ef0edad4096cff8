/**
 * The GET filter forms of the logs, audit, events and overview pages, and the fields they
 * share: without JavaScript they still work, and every filtered view has an address.
 */
import type { ComponentChildren } from "preact";
import { INPUT, LABEL, MUTED, PRIMARY_BUTTON, SECONDARY_BUTTON } from "./ui.ts";

/**
 * A filter form of the page at `action`: its fields, then the submit button (`submit`, default
 * "Apply filters") and Reset.
 */
export function FilterForm(
  props: {
    action: string;
    label: string;
    class?: string;
    submit?: string;
    children: ComponentChildren;
  },
) {
  return (
    <form
      method="get"
      action={props.action}
      class={props.class ?? "grid gap-3"}
      aria-label={props.label}
    >
      {props.children}
      <FilterActions resetHref={props.action} submit={props.submit ?? "Apply filters"} />
    </form>
  );
}

/**
 * A typed filter; `search` marks the page's search box, `choices` are suggestions, `verbatim`
 * a value matched as typed (a search box without autofill or spell checking), `hint` a line
 * under the field; at most `maxLength` characters (default 100).
 */
export function TextFilter(
  props: {
    label: string;
    name: string;
    value?: string;
    placeholder?: string;
    search?: boolean;
    verbatim?: boolean;
    choices?: { listId: string; values: readonly string[] };
    maxLength?: number;
    hint?: string;
    class?: string;
  },
) {
  const { choices } = props;
  const hintId = props.hint === undefined ? undefined : `search-${props.name}-hint`;
  const field = (
    <label class={props.class ? `${LABEL} ${props.class}` : LABEL}>
      {props.label}
      <input
        class={INPUT}
        type={props.search || props.verbatim ? "search" : undefined}
        name={props.name}
        list={choices?.listId}
        value={props.value ?? ""}
        maxLength={props.maxLength ?? 100}
        placeholder={props.placeholder}
        aria-describedby={hintId}
        autocomplete={props.verbatim ? "off" : undefined}
        spellcheck={props.verbatim ? false : undefined}
        data-search={props.search || undefined}
      />
      {choices && (
        <datalist id={choices.listId}>
          {choices.values.map((value) => <option key={value} value={value} />)}
        </datalist>
      )}
    </label>
  );
  if (hintId === undefined) return field;
  return (
    <div class={props.class ? `flex flex-col gap-1 ${props.class}` : "flex flex-col gap-1"}>
      {field}
      <span id={hintId} class={`text-xs ${MUTED}`}>{props.hint}</span>
    </div>
  );
}

/** A filter chosen from a list, first "Any" (or what `any` says): no filter. */
export function ChoiceFilter(
  props: {
    label: string;
    name: string;
    selected?: string;
    choices: readonly (readonly [value: string, text: string])[];
    any?: string;
    class?: string;
  },
) {
  return (
    <label class={props.class ? `${LABEL} ${props.class}` : LABEL}>
      {props.label}
      <select class={INPUT} name={props.name}>
        <option value="">{props.any ?? "Any"}</option>
        {props.choices.map(([value, text]) => (
          <option key={value} value={value} selected={props.selected === value}>{text}</option>
        ))}
      </select>
    </label>
  );
}

/** The `group` filter: every group the person can read, or one. */
export function GroupSelect(
  props: { groups: readonly { id: string; name: string }[]; selected?: string },
) {
  return (
    <ChoiceFilter
      label="Group"
      name="group"
      any="All my groups"
      selected={props.selected}
      choices={props.groups.map((group) => [
        group.id,
        group.name === group.id ? group.id : `${group.name} (${group.id})`,
      ])}
    />
  );
}

/** The `from` and `to` filters: UTC days, both included. */
export function DayFields(props: { from?: string; to?: string }) {
  return (
    <>
      <label class={LABEL}>
        From (UTC day)
        <input class={INPUT} type="date" name="from" value={props.from ?? ""} />
      </label>
      <label class={LABEL}>
        To (UTC day)
        <input class={INPUT} type="date" name="to" value={props.to ?? ""} />
      </label>
    </>
  );
}

/** The submit button, and Reset (the page without filters). */
function FilterActions(props: { resetHref: string; submit: string }) {
  return (
    <div class="flex flex-wrap gap-2">
      <button type="submit" class={PRIMARY_BUTTON}>{props.submit}</button>
      <a href={props.resetHref} class={SECONDARY_BUTTON}>Reset</a>
    </div>
  );
}
