import type { LogFilters, LogsPageData } from "../../lib/admin/logs_page.ts";
import { pageHref } from "./href.ts";
import { ChoiceFilter, DayFields, FilterForm, GroupSelect, TextFilter } from "./FilterFields.tsx";
import { INPUT, LABEL, LINK, MUTED } from "./ui.ts";

const STATUSES = (["ok", "failed", "dead", "retrying"] as const).map((status) =>
  [status, status] as const
);

const PLATFORMS = [["discord", "Discord"], ["telegram", "Telegram"]] as const;

/** Event names offered while typing the event filter (any other name works too). */
const COMMON_EVENTS = [
  "push",
  "pull_request",
  "pull_request.opened",
  "pull_request.closed",
  "pull_request_review",
  "issues",
  "issues.opened",
  "issue_comment",
  "release",
  "workflow_run",
  "check_run",
  "create",
  "delete",
  "custom",
];

const SEARCH_HINT = "Delivery id, repository, channel, error…";
const SEARCH = { label: "Search", name: "q", placeholder: SEARCH_HINT, search: true };
const EVENT = { label: "Event", name: "event", placeholder: "kind or kind.action" };
const EVENTS = { listId: "log-events", values: COMMON_EVENTS };

/**
 * The send logs filters: a GET form, so it works without JavaScript and every filtered view
 * has an address. Days are UTC days, both included.
 */
export function LogFilterForm(
  props: { filters: LogFilters; groups: LogsPageData["groups"]; routes: LogsPageData["routes"] },
) {
  const { filters, groups, routes } = props;
  const routeGroups = groups.filter((group) => routes.some((r) => r.groupId === group.id));
  return (
    <FilterForm action="/admin/logs" label="Filter send logs">
      <TextFilter {...SEARCH} value={filters.q} />
      <div class="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-7">
        <ChoiceFilter label="Status" name="status" selected={filters.status} choices={STATUSES} />
        <GroupSelect groups={groups} selected={filters.group} />
        <label class={LABEL}>
          Route
          <select class={INPUT} name="route">
            <option value="">Any</option>
            {routeGroups.map((group) => (
              <optgroup key={group.id} label={group.name}>
                {routes.filter((route) => route.groupId === group.id).map((route) => (
                  <option
                    key={`${group.id}/${route.id}`}
                    value={route.id}
                    selected={filters.route === route.id}
                  >
                    {route.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <ChoiceFilter
          label="Platform"
          name="platform"
          selected={filters.platform}
          choices={PLATFORMS}
        />
        <TextFilter {...EVENT} value={filters.event} choices={EVENTS} />
        <DayFields from={filters.from} to={filters.to} />
      </div>
      {filters.delivery !== undefined && (
        <p class={`flex flex-wrap items-center gap-2 text-sm ${MUTED}`}>
          <input type="hidden" name="delivery" value={filters.delivery} />
          <span>
            Delivery <span class="font-mono break-all">{filters.delivery}</span>
          </span>
          <a class={LINK} href={withoutDelivery(filters)}>show every delivery</a>
        </p>
      )}
    </FilterForm>
  );
}

/** The logs page address for `filters`, optionally at a cursor. */
export function logsHref(filters: LogFilters, cursor?: string): string {
  return pageHref("/admin/logs", filters, cursor);
}

function withoutDelivery(filters: LogFilters): string {
  const { delivery: _delivery, ...rest } = filters;
  return logsHref(rest);
}
