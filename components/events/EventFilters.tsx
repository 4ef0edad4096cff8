import type { EventFilters } from "../../lib/admin/events_page.ts";
import { FilterActions } from "../logs/FilterFields.tsx";
import { INPUT, LABEL } from "../logs/ui.ts";

/** The events filters: a GET form, so it works without JavaScript and has an address. */
export function EventFilterForm(props: { groupId: string; filters: EventFilters }) {
  const action = `/admin/events/${encodeURIComponent(props.groupId)}`;
  return (
    <form
      method="get"
      action={action}
      class="flex flex-wrap items-end gap-3"
      aria-label="Filter events"
    >
      <label class={`${LABEL} w-full sm:w-64`}>
        Event
        <input
          class={INPUT}
          type="search"
          name="event"
          value={props.filters.event ?? ""}
          maxLength={100}
          placeholder="pull_request.opened"
          data-search
        />
      </label>
      <label class={`${LABEL} w-full sm:w-56`}>
        Routes fired
        <select class={INPUT} name="outcome">
          <option value="">Any</option>
          <option value="none" selected={props.filters.outcome === "none"}>None</option>
          <option value="fired" selected={props.filters.outcome === "fired"}>At least one</option>
        </select>
      </label>
      <FilterActions resetHref={action} />
    </form>
  );
}
