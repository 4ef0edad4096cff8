/**
 * Finding a group's events: its routed-event records searched newest first by event kind and
 * action (the routes' event matcher), repository, sender, outcome, title text (a plain
 * case-insensitive substring, never a pattern), delivery id and a JSONPath filter over the stored payloads (the routes' field matcher, each payload with
 * the routes' per-event evaluation budget). A delivery id or a repository is looked up in its
 * index (lib/store/delivery/event_routes.ts) rather than found by reading every record.
 *
 * A page never reads without bound: it stops after {@link SEARCH_LIMITS} records examined,
 * payloads read, payload bytes read or milliseconds spent, and then answers what it found with a
 * cursor that continues where it stopped (`reach.partial`). `reach` says how far it looked.
 */
import type { Kv } from "../store/backend/types.ts";
import { EvaluationBudget, FilterEvaluationError } from "../jsonpath/budget.ts";
import { compileEventFilter, type EventMatcher } from "../routing/event_filter.ts";
import { type CompiledField, compileFieldFilter, fieldMatches } from "../routing/field_filter.ts";
import {
  type EventRoutes,
  listEventRoutes,
  listEventRoutesByDelivery,
  listEventRoutesByRepository,
} from "../store/delivery/event_routes.ts";
import { loadEvents } from "../store/delivery/events.ts";
import type { FieldFilter } from "../types.ts";

/** A validated search (see `eventsQuerySchema`); absent fields do not filter. */
export interface EventSearch {
  /** `kind`, `kind.action`, with `*` wildcards, as in route filters. */
  event?: string;
  outcome?: "fired" | "none";
  /** `owner/name`, compared without regard to case. */
  repository?: string;
  /** A login, compared without regard to case. */
  sender?: string;
  /** Text the title contains, compared without regard to case. */
  text?: string;
  deliveryId?: string;
  /** A field filter over the payload (valid: checked by the query's schema). */
  payload?: FieldFilter;
  /** Only events with ids below this one. */
  cursor?: string;
  limit: number;
}

/** How much one page may read before it answers with what it found. */
interface SearchLimits {
  /** Records examined. */
  records: number;
  /** Payloads read and matched against the payload filter. */
  payloads: number;
  /** Bytes of those payloads (as received). */
  payloadBytes: number;
  /** Milliseconds spent. */
  ms: number;
}

/**
 * The page limits: measured on a KV file (bench/event_search_bench.ts), a page that uses them
 * all answers well within a second.
 */
export const SEARCH_LIMITS: SearchLimits = {
  records: 100_000,
  payloads: 2_000,
  payloadBytes: 32_000_000,
  ms: 500,
};

/** Records read per store round trip (KV's most). */
const LIST_BATCH = 1000;

/** Payloads read together. */
const PAYLOAD_BATCH = 20;

/** How far one page looked. */
export interface SearchReach {
  /** Records examined. */
  events: number;
  /** Payloads read and matched against the payload filter. */
  payloads: number;
  payloadBytes: number;
  /** Payloads past retention, unreadable, or over the evaluation budget: not matched. */
  skipped: number;
  /** When the oldest examined event arrived (Unix ms). */
  oldest?: number;
  /** The page stopped at its limits before it was full; its cursor continues the search. */
  partial: boolean;
}

/** A page of found records, newest first; `cursor` continues the search. */
export interface SearchPage {
  items: EventRoutes[];
  cursor?: string;
  reach: SearchReach;
}

/** Whether a record passes the filters its own fields can decide. */
function recordFilter(search: EventSearch): (record: EventRoutes) => boolean {
  const event: EventMatcher | undefined = search.event === undefined
    ? undefined
    : compileEventFilter(search.event);
  const repository = search.repository?.toLowerCase();
  const sender = search.sender?.toLowerCase();
  const text = search.text?.toLowerCase();
  const fired = search.outcome === undefined ? undefined : search.outcome === "fired";
  return (record) =>
    (event === undefined || event(record.kind, record.action)) &&
    (fired === undefined || fired === record.routeIds.length > 0) &&
    (repository === undefined || record.repository?.toLowerCase() === repository) &&
    (sender === undefined || record.sender?.toLowerCase() === sender) &&
    (text === undefined || (record.title?.toLowerCase().includes(text) ?? false));
}

/** The records to examine: through an index when the search names a delivery id or repository. */
function sourceOf(kv: Kv, internalId: string, search: EventSearch): AsyncIterable<EventRoutes> {
  if (search.deliveryId !== undefined) {
    return listEventRoutesByDelivery(kv, internalId, search.deliveryId, search.cursor);
  }
  if (search.repository !== undefined) {
    return listEventRoutesByRepository(kv, internalId, search.repository, search.cursor);
  }
  return listEventRoutes(kv, internalId, search.cursor, LIST_BATCH);
}

/** Whether a payload passes the field filter within one event's evaluation budget. */
function payloadPasses(field: CompiledField, payload: unknown): boolean | undefined {
  try {
    return fieldMatches(field, payload, new EvaluationBudget());
  } catch (error) {
    if (error instanceof FilterEvaluationError) return undefined;
    throw error;
  }
}

/**
 * One page of a group's (by internal id) events that pass `search`, newest first, within
 * `limits` (see the module comment). `now` reads the clock in milliseconds.
 */
export async function searchEvents(
  kv: Kv,
  internalId: string,
  search: EventSearch,
  limits: SearchLimits = SEARCH_LIMITS,
  now: () => number = performance.now.bind(performance),
): Promise<SearchPage> {
  const started = now();
  const passes = recordFilter(search);
  const field = search.payload === undefined ? undefined : compileFieldFilter(search.payload);
  const source = sourceOf(kv, internalId, search);
  const items: EventRoutes[] = [];
  const reach: SearchReach = {
    events: 0,
    payloads: 0,
    payloadBytes: 0,
    skipped: 0,
    partial: false,
  };
  /** Every record newer than this id is decided (listed or not). */
  let decided: string | undefined;
  /** Records that passed `passes`, waiting for their payloads. */
  let waiting: EventRoutes[] = [];
  /** The last record examined (it may be waiting). */
  let examined: string | undefined;

  /** Matches the waiting records' payloads; true when the page filled up. */
  async function settle(): Promise<boolean> {
    if (field !== undefined && waiting.length > 0) {
      const loaded = await loadEvents(kv, waiting.map((record) => record.eventId));
      for (const record of waiting) {
        const found = loaded.get(record.eventId);
        reach.payloads++;
        let matched: boolean | undefined;
        if (found !== undefined && "payloadBytes" in found) {
          reach.payloadBytes += found.payloadBytes;
          matched = payloadPasses(field, found.event.payload);
        }
        if (matched === undefined) reach.skipped++;
        if (matched !== true) continue;
        items.push(record);
        if (items.length === search.limit) {
          decided = record.eventId;
          return true;
        }
      }
    }
    waiting = [];
    decided = examined;
    return false;
  }

  function overLimits(): boolean {
    return reach.events >= limits.records || reach.payloads + waiting.length >= limits.payloads ||
      reach.payloadBytes >= limits.payloadBytes || now() - started >= limits.ms;
  }

  for await (const record of source) {
    if (reach.events > 0 && overLimits()) {
      reach.partial = !await settle();
      return { items, cursor: decided, reach };
    }
    reach.events++;
    reach.oldest = record.receivedAt;
    examined = record.eventId;
    if (!passes(record)) continue;
    if (field === undefined) {
      items.push(record);
      if (items.length === search.limit) return { items, cursor: record.eventId, reach };
      continue;
    }
    waiting.push(record);
    if (waiting.length === PAYLOAD_BATCH && await settle()) {
      return { items, cursor: decided, reach };
    }
  }
  await settle();
  return { items, cursor: items.length === search.limit ? decided : undefined, reach };
}
