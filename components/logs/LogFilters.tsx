import type { LogFilters, LogsPageData } from "../../lib/admin/logs_page.ts";
import { pageHref } from "./href.ts";
import { DayFields, FilterActions, GroupSelect } from "./FilterFields.tsx";
import { INPUT, LABEL, LINK, MUTED } from "./ui.ts";

const STATUSES = ["ok", "failed", "dead", "retrying"] as const;

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
    <form method="get" action="/admin/logs" class="grid gap-3" aria-label="Filter send logs">
      <label class={LABEL}>
        Search
        <input
          class={INPUT}
          type="search"
          name="q"
          value={filters.q ?? ""}
          maxLength={100}
          placeholder="Delivery id, repository, channel, error…"
          data-search
        />
      </label>
      <div class="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-7">
        <label class={LABEL}>
          Status
          <select class={INPUT} name="status">
            <option value="">Any</option>
            {STATUSES.map((status) => (
              <option key={status} value={status} selected={filters.status === status}>
                {status}
              </option>
            ))}
          </select>
        </label>
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
        <label class={LABEL}>
          Platform
          <select class={INPUT} name="platform">
            <option value="">Any</option>
            <option value="discord" selected={filters.platform === "discord"}>Discord</option>
            <option value="telegram" selected={filters.platform === "telegram"}>Telegram</option>
          </select>
        </label>
        <label class={LABEL}>
          Event
          <input
            class={INPUT}
            name="event"
            list="log-events"
            value={filters.event ?? ""}
            maxLength={100}
            placeholder="kind or kind.action"
          />
          <datalist id="log-events">
            {COMMON_EVENTS.map((event) => <option key={event} value={event} />)}
          </datalist>
        </label>
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
      <FilterActions resetHref="/admin/logs" />
    </form>
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
