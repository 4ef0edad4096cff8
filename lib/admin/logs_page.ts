/**
 * The console's send logs page: its GET form's fields (the page's query) turned into a logs
 * query, one page of logs through the same function as `GET /admin/api/logs`, and what the
 * filter controls offer (the caller's groups and their routes). The form's day fields are UTC
 * days: `from` starts at the day's first millisecond, `to` ends at its last.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { canEditRoutes, readableGroups } from "../auth/principal.ts";
import { listGroups } from "../store/config/groups.ts";
import { getRoutes } from "../store/config/routes.ts";
import type { SendLog } from "../store/delivery/send_logs.ts";
import { endOfDay, loadPageOrRefusal, readFilters } from "./filter_page.ts";
import { queryLogs } from "./logs.ts";
import { logsQuerySchema } from "./schemas.ts";

/** The page's filter fields, as the form names them. */
const LOG_FILTER_FIELDS = [
  "q",
  "status",
  "group",
  "route",
  "platform",
  "event",
  "from",
  "to",
  "delivery",
] as const;

/** One filter field's name. */
type LogFilterField = typeof LOG_FILTER_FIELDS[number];

/** The filters as typed in the form (empty fields left out), to fill it again. */
export type LogFilters = Partial<Record<LogFilterField, string>>;

/** Logs shown per page. */
const LOGS_PER_PAGE = 50;

/** What the page renders. */
export interface LogsPageData {
  filters: LogFilters;
  /** Why the filters could not be applied (the page then shows no logs). */
  error?: string;
  /** The page's HTTP status: 200, or the 4xx of the refusal in `error`. */
  status: number;
  items: SendLog[];
  /** The cursor of the next page, when there is one. */
  next?: string;
  /** Whether this is a later page (a cursor was given). */
  paged: boolean;
  /** The groups the caller can read, for the group filter. */
  groups: { id: string; name: string }[];
  /** Their routes, for the route filter. */
  routes: { groupId: string; id: string; name: string }[];
  /** The groups whose deliveries the caller may send again (owner or admin). */
  editable: string[];
}

/** The page's filters in the API's names (`to` as a day means the end of that day). */
function apiQuery(filters: LogFilters, cursor: string | null): Record<string, string> {
  const query: Record<string, string> = Object.create(null);
  const names: [LogFilterField, string][] = [
    ["q", "q"],
    ["status", "status"],
    ["group", "groupId"],
    ["route", "routeId"],
    ["platform", "platform"],
    ["event", "event"],
    ["from", "from"],
    ["to", "to"],
    ["delivery", "deliveryId"],
  ];
  for (const [field, name] of names) {
    const value = filters[field];
    if (value !== undefined) query[name] = value;
  }
  if (filters.to !== undefined) query.to = endOfDay(filters.to);
  if (cursor) query.cursor = cursor;
  query.limit = String(LOGS_PER_PAGE);
  return query;
}

/** The logs page for the caller: filter options, and one page of logs or why there is none. */
export async function loadLogsPage(
  kv: Kv,
  principal: Principal,
  params: URLSearchParams,
): Promise<LogsPageData> {
  const filters: LogFilters = readFilters(params, LOG_FILTER_FIELDS);
  const cursor = params.get("cursor");
  const [groups, { routes }] = await Promise.all([listGroups(kv), getRoutes(kv)]);
  const visible = readableGroups(principal, groups);
  const visibleIds = new Set(visible.map((group) => group.id));
  const data: LogsPageData = {
    filters,
    items: [],
    paged: Boolean(cursor),
    status: 200,
    groups: visible.map(({ id, name }) => ({ id, name })),
    routes: routes.filter((route) => visibleIds.has(route.groupId))
      .map(({ groupId, id, name }) => ({ groupId, id, name })),
    editable: visible.filter((group) => canEditRoutes(principal, group.id)).map(({ id }) => id),
  };
  return {
    ...data,
    ...await loadPageOrRefusal(
      logsQuerySchema,
      apiQuery(filters, cursor),
      pageFieldNames,
      (valid) => queryLogs(kv, principal, valid),
    ),
  };
}

/** An API field name in a validation message, as the page's form names it. */
function pageFieldNames(message: string): string {
  return message.replace(/\bgroupId\b/g, "group").replace(/\brouteId\b/g, "route")
    .replace(/\bdeliveryId\b/g, "delivery");
}
