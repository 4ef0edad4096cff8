import type { EventFilters } from "../../lib/admin/events_page.ts";
import { SEARCH_PAYLOAD_OPS } from "../../lib/admin/schemas.ts";
import { ChoiceFilter, FilterForm, TextFilter } from "../logs/FilterFields.tsx";

const OUTCOMES = [["none", "None"], ["fired", "At least one"]] as const;
const OPERATORS = SEARCH_PAYLOAD_OPS.map((op) => [op, op] as const);

/**
 * The events search: a GET form (it works without JavaScript and the search has an address) by
 * repository, sender, event, outcome, title text, delivery id and a JSONPath filter over the
 * payloads.
 */
export function EventFilterForm(props: { groupId: string; filters: EventFilters }) {
  const action = `/admin/events/${encodeURIComponent(props.groupId)}`;
  const { filters } = props;
  return (
    <FilterForm action={action} label="Search events" class="flex flex-col gap-4" submit="Search">
      <div class="flex flex-wrap items-start gap-3">
        <TextFilter
          label="Repository"
          name="repository"
          value={filters.repository}
          verbatim
          maxLength={200}
          placeholder="owner/name"
          class="w-full sm:w-56"
        />
        <TextFilter
          label="Sender"
          name="sender"
          value={filters.sender}
          verbatim
          placeholder="login"
          class="w-full sm:w-40"
        />
        <TextFilter
          label="Event"
          name="event"
          value={filters.event}
          verbatim
          placeholder="pull_request.opened"
          class="w-full sm:w-52"
        />
        <ChoiceFilter
          label="Routes fired"
          name="outcome"
          selected={filters.outcome}
          choices={OUTCOMES}
          class="w-full sm:w-40"
        />
        <TextFilter
          label="Title contains"
          name="text"
          value={filters.text}
          verbatim
          maxLength={200}
          placeholder="flaky test"
          class="w-full sm:w-56"
        />
        <TextFilter
          label="Delivery id"
          name="deliveryId"
          value={filters.deliveryId}
          verbatim
          maxLength={200}
          class="w-full sm:w-72"
        />
      </div>
      <fieldset class="flex flex-wrap items-start gap-3">
        <legend class="mb-2 text-xs font-semibold text-slate-700 dark:text-slate-300">
          Payload filter (as in route filters)
        </legend>
        <TextFilter
          label="JSONPath"
          name="path"
          value={filters.path}
          verbatim
          maxLength={512}
          placeholder="$.pull_request.labels[*].name"
          class="w-full sm:w-80"
          hint="Payloads are read in slices; a long search continues page by page."
        />
        <ChoiceFilter
          label="Operator"
          name="op"
          any="default"
          selected={filters.op}
          choices={OPERATORS}
          class="w-full sm:w-36"
        />
        <TextFilter
          label="Value"
          name="value"
          value={filters.value}
          verbatim
          maxLength={4096}
          placeholder="bug"
          class="w-full sm:w-48"
          hint="Default operator: eq, or exists when empty."
        />
      </fieldset>
    </FilterForm>
  );
}
