import type { EventFilters } from "../../lib/admin/events_page.ts";
import { SEARCH_PAYLOAD_OPS } from "../../lib/admin/schemas.ts";
import { INPUT, LABEL, MUTED, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../logs/ui.ts";

/** One text field of the search. */
function SearchField(props: {
  label: string;
  name: keyof EventFilters;
  filters: EventFilters;
  maxLength: number;
  placeholder?: string;
  width: string;
  hint?: string;
}) {
  const hintId = props.hint === undefined ? undefined : `search-${props.name}-hint`;
  const field = (
    <label class={`${LABEL} ${props.width}`}>
      {props.label}
      <input
        class={INPUT}
        type="search"
        name={props.name}
        value={props.filters[props.name] ?? ""}
        maxLength={props.maxLength}
        placeholder={props.placeholder}
        aria-describedby={hintId}
        autocomplete="off"
        spellcheck={false}
      />
    </label>
  );
  if (hintId === undefined) return field;
  return (
    <div class={`flex flex-col gap-1 ${props.width}`}>
      {field}
      <span id={hintId} class={`text-xs ${MUTED}`}>{props.hint}</span>
    </div>
  );
}

/**
 * The events search: a GET form (it works without JavaScript and the search has an address) by
 * repository, sender, event, outcome, title text, delivery id and a JSONPath filter over the
 * payloads.
 */
export function EventFilterForm(props: { groupId: string; filters: EventFilters }) {
  const action = `/admin/events/${encodeURIComponent(props.groupId)}`;
  const { filters } = props;
  return (
    <form method="get" action={action} class="flex flex-col gap-4" aria-label="Search events">
      <div class="flex flex-wrap items-start gap-3">
        <SearchField
          label="Repository"
          name="repository"
          filters={filters}
          maxLength={200}
          placeholder="owner/name"
          width="w-full sm:w-56"
        />
        <SearchField
          label="Sender"
          name="sender"
          filters={filters}
          maxLength={100}
          placeholder="login"
          width="w-full sm:w-40"
        />
        <SearchField
          label="Event"
          name="event"
          filters={filters}
          maxLength={100}
          placeholder="pull_request.opened"
          width="w-full sm:w-52"
        />
        <label class={`${LABEL} w-full sm:w-40`}>
          Routes fired
          <select class={INPUT} name="outcome">
            <option value="">Any</option>
            <option value="none" selected={filters.outcome === "none"}>None</option>
            <option value="fired" selected={filters.outcome === "fired"}>At least one</option>
          </select>
        </label>
        <SearchField
          label="Title contains"
          name="text"
          filters={filters}
          maxLength={200}
          placeholder="flaky test"
          width="w-full sm:w-56"
        />
        <SearchField
          label="Delivery id"
          name="deliveryId"
          filters={filters}
          maxLength={200}
          width="w-full sm:w-72"
        />
      </div>
      <fieldset class="flex flex-wrap items-start gap-3">
        <legend class="mb-2 text-xs font-semibold text-slate-700 dark:text-slate-300">
          Payload filter (as in route filters)
        </legend>
        <SearchField
          label="JSONPath"
          name="path"
          filters={filters}
          maxLength={512}
          placeholder="$.pull_request.labels[*].name"
          width="w-full sm:w-80"
          hint="Payloads are read in slices; a long search continues page by page."
        />
        <label class={`${LABEL} w-full sm:w-36`}>
          Operator
          <select class={INPUT} name="op">
            <option value="">default</option>
            {SEARCH_PAYLOAD_OPS.map((op) => (
              <option key={op} value={op} selected={filters.op === op}>{op}</option>
            ))}
          </select>
        </label>
        <SearchField
          label="Value"
          name="value"
          filters={filters}
          maxLength={4096}
          placeholder="bug"
          width="w-full sm:w-48"
          hint="Default operator: eq, or exists when empty."
        />
      </fieldset>
      <div class="flex flex-wrap gap-2">
        <button type="submit" class={PRIMARY_BUTTON}>Search</button>
        <a href={action} class={SECONDARY_BUTTON}>Reset</a>
      </div>
    </form>
  );
}
