/**
 * The console's events pages: a search of a group's events (the page's query turned into an
 * events query, answered by the same function as `GET /admin/api/groups/:id/events`) and one event
 * explained against each route (the same as `GET /admin/api/groups/:id/events/:eventId`).
 * Refusals of the filters are shown on the page with their status, never thrown.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { canEditRoutes } from "../auth/principal.ts";
import { formatZodError } from "../model/schema.ts";
import { requireId } from "../http_guards.ts";
import {
  getGroupEvent,
  type GroupEvent,
  type GroupEventDetail,
  listGroupEvents,
} from "./events.ts";
import type { SearchReach } from "./event_search.ts";
import { readFilters } from "./filter_page.ts";
import { requireGroup } from "./guards.ts";
import { eventsQuerySchema } from "./schemas.ts";

/** Events shown per page. */
const EVENTS_PER_PAGE = 50;

/** The search fields, as the form (and the API's query) names them. */
const EVENT_FILTER_FIELDS = [
  "repository",
  "sender",
  "event",
  "outcome",
  "text",
  "deliveryId",
  "path",
  "op",
  "value",
] as const;

/** The filters as typed in the form (empty fields left out). */
export type EventFilters = Partial<Record<typeof EVENT_FILTER_FIELDS[number], string>>;

/** What the events list renders. */
interface EventsPageData {
  group: { id: string; name: string };
  filters: EventFilters;
  items: GroupEvent[];
  next?: string;
  paged: boolean;
  /** How far this page looked (absent when the filters were refused). */
  reach?: SearchReach;
  /** Why the filters could not be applied. */
  error?: string;
  status: number;
}

/** The group's events page (404 unknown group, 403 not a member, 400 bad id). */
export async function loadEventsPage(
  kv: Kv,
  principal: Principal,
  groupId: string,
  params: URLSearchParams,
): Promise<EventsPageData> {
  requireId("group", groupId, "group");
  const group = await requireGroup(kv, principal, groupId, "read");
  const filters: EventFilters = readFilters(params, EVENT_FILTER_FIELDS);
  const cursor = params.get("cursor") || undefined;
  const data: EventsPageData = {
    group: { id: group.id, name: group.name },
    filters,
    items: [],
    paged: cursor !== undefined,
    status: 200,
  };
  const parsed = eventsQuerySchema.safeParse({ ...filters, cursor, limit: EVENTS_PER_PAGE });
  if (!parsed.success) return { ...data, error: formatZodError(parsed.error), status: 400 };
  const page = await listGroupEvents(kv, principal, groupId, parsed.data);
  return { ...data, items: page.items, next: page.cursor, reach: page.reach };
}

/** What the event page renders. */
interface EventPageData extends GroupEventDetail {
  group: { id: string; name: string };
  /** Whether the reader may send failed units again. */
  canRedeliver: boolean;
}

/** One event of a group, explained (404 when the group has no record of it). */
export async function loadEventPage(
  kv: Kv,
  principal: Principal,
  groupId: string,
  eventId: string,
): Promise<EventPageData> {
  requireId("group", groupId, "group");
  requireId("event", eventId, "event");
  const group = await requireGroup(kv, principal, groupId, "read");
  const detail = await getGroupEvent(kv, principal, groupId, eventId);
  return {
    ...detail,
    group: { id: group.id, name: group.name },
    canRedeliver: canEditRoutes(principal, groupId),
  };
}

/** What each search field means, for the sentence that says what was searched. */
const FIELD_WORDS: ReadonlyMap<keyof EventFilters, (value: string) => string> = new Map([
  ["repository", (value: string) => `repository ${value}`],
  ["sender", (value: string) => `sender ${value}`],
  ["event", (value: string) => `event ${value}`],
  ["outcome", (value: string) => value === "none" ? "no route fired" : "a route fired"],
  ["text", (value: string) => `title containing “${value}”`],
  ["deliveryId", (value: string) => `delivery id ${value}`],
]);

/**
 * The search in words, one phrase per field (`repository octo/app`, `title containing “flaky”`,
 * `payload $.draft eq true`), for the empty state and the reach note.
 */
export function searchPhrases(filters: EventFilters): string[] {
  const phrases: string[] = [];
  for (const [field, words] of FIELD_WORDS) {
    const value = filters[field];
    if (value !== undefined) phrases.push(words(value));
  }
  if (filters.path !== undefined) {
    const op = filters.op ?? (filters.value === undefined ? "exists" : "eq");
    const value = filters.value === undefined ? "" : ` ${filters.value}`;
    phrases.push(`payload ${filters.path} ${op}${value}`);
  }
  return phrases;
}
