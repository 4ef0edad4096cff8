/**
 * Routed events: for each event a group's routes were evaluated on, which of them fired (none
 * included), under `["event_routes", groupInternalId, eventId]`. The fan-out writes one small
 * record per group the event entered, with the same retention as send logs; the console lists
 * them newest first (event ids are ulids) and explains each one. Keyed by the group's internal
 * id, like send logs, so the record follows renames and never passes to a later group with the
 * same id. Two indexes with the same retention find events without a scan: by the sender's
 * delivery id (`["event_routes_by_delivery", internalId, deliveryId, eventId]`) and by repository
 * in lower case (`["event_routes_by_repository", internalId, repository, eventId]`).
 */
import type { AtomicOperation, Kv, KvListSelector } from "../backend/types.ts";
import type { ForgeEvent, Provider, Route } from "../../types.ts";
import { listValues, readIndexed, valuesOf } from "../batch.ts";
import {
  eventDeliveryKey,
  eventDeliveryPrefix,
  eventRepositoryKey,
  eventRepositoryPrefix,
  eventRoutesKey,
  eventRoutesPrefix,
  selectBelow,
} from "../keys.ts";

/** What one event did in one group. */
export interface EventRoutes {
  eventId: string;
  /** The sender's delivery id, when it sent one. */
  deliveryId?: string;
  provider: Provider;
  /** The event kind (`push`, `pull_request`, `custom` …). */
  kind: string;
  action?: string;
  /** `owner/name`, when the payload names a repository. */
  repository?: string;
  /** The login of the payload's `sender`, when it names one. */
  sender?: string;
  /** The event in words: the title of the message it makes (cut to 200 characters). */
  title?: string;
  /** The group's id when the event was routed. */
  groupId: string;
  /** The routes of the group that fired, in stored order (empty: none did). */
  routeIds: string[];
  /** Unix milliseconds. */
  receivedAt: number;
}

const REPOSITORY_CHARS = 200;
const SENDER_CHARS = 100;
const TITLE_CHARS = 200;

function nameAt(value: unknown, field: string, limit: number): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const name = (value as Record<string, unknown>)[field];
  return typeof name === "string" && name !== "" ? name.slice(0, limit) : undefined;
}

/** The repository an event is about (`owner/name`), when its payload names one. */
export function repositoryOf(event: Pick<ForgeEvent, "payload">): string | undefined {
  return nameAt(event.payload.repository, "full_name", REPOSITORY_CHARS);
}

/** The login of the event's sender, when its payload names one. */
export function senderOf(event: Pick<ForgeEvent, "payload">): string | undefined {
  return nameAt(event.payload.sender, "login", SENDER_CHARS);
}

/**
 * The records of one routed event: one per group it entered (`entered`, by group id), naming
 * the routes of that group among `fired`, with the title of the event's message. Groups without
 * an internal id are left out.
 */
export function routedEventRecords(
  event: ForgeEvent,
  entered: readonly string[],
  fired: readonly Route[],
  internalIds: ReadonlyMap<string, string>,
  title?: string,
): { internalId: string; record: EventRoutes }[] {
  const repository = repositoryOf(event);
  const sender = senderOf(event);
  return entered.flatMap((groupId) => {
    const internalId = internalIds.get(groupId);
    if (internalId === undefined) return [];
    const record: EventRoutes = {
      eventId: event.id,
      ...(event.deliveryId === undefined ? {} : { deliveryId: event.deliveryId }),
      provider: event.provider,
      kind: event.kind,
      ...(event.action === undefined ? {} : { action: event.action }),
      ...(repository === undefined ? {} : { repository }),
      ...(sender === undefined ? {} : { sender }),
      ...(title ? { title: title.slice(0, TITLE_CHARS) } : {}),
      groupId,
      routeIds: fired.filter((route) => route.groupId === groupId).map((route) => route.id),
      receivedAt: event.receivedAt,
    };
    return [{ internalId, record }];
  });
}

/** Most mutations {@link addEventRoutesWrites} adds for one record (the record, two index entries). */
export const EVENT_ROUTES_MUTATIONS = 3;

/** Bytes of one record's index entries, at most (keys of bounded parts, the event id as value). */
export const EVENT_ROUTES_INDEX_BYTES = 1_000;

/**
 * Adds to `op` the writes of one group's record of an event (`internalId` with its record),
 * replacing an earlier record of the same event, and its index entries (at most
 * {@link EVENT_ROUTES_MUTATIONS} mutations).
 */
export function addEventRoutesWrites(
  op: AtomicOperation,
  internalId: string,
  record: EventRoutes,
  expireIn: number,
): AtomicOperation {
  const { eventId, deliveryId, repository } = record;
  op.set(eventRoutesKey(internalId, eventId), record, { expireIn });
  if (deliveryId !== undefined) {
    op.set(eventDeliveryKey(internalId, deliveryId, eventId), eventId, { expireIn });
  }
  if (repository !== undefined) {
    const key = eventRepositoryKey(internalId, repository.toLowerCase(), eventId);
    op.set(key, eventId, { expireIn });
  }
  return op;
}

/** Records written by one atomic operation (well under KV's 1,000 mutations). */
const RECORDS_PER_COMMIT = 100;

/**
 * Stores what an event did in each group it entered (`internalId` with its record), replacing
 * an earlier record of the same event (a fan-out that runs again writes the same values), with
 * their index entries.
 */
export async function recordEventRoutes(
  kv: Kv,
  records: readonly { internalId: string; record: EventRoutes }[],
  expireIn: number,
): Promise<void> {
  for (let start = 0; start < records.length; start += RECORDS_PER_COMMIT) {
    const op = kv.atomic();
    for (const { internalId, record } of records.slice(start, start + RECORDS_PER_COMMIT)) {
      addEventRoutesWrites(op, internalId, record, expireIn);
    }
    await op.commit();
  }
}

/** What one event did in a group (by internal id), or null when no record is kept. */
export async function getEventRoutes(
  kv: Kv,
  internalId: string,
  eventId: string,
): Promise<EventRoutes | null> {
  return (await kv.get<EventRoutes>(eventRoutesKey(internalId, eventId))).value;
}

/**
 * A group's routed events newest first, those with an id below `below` when it is given, read
 * `batchSize` records per store round trip (a search that reads many passes a large one).
 */
export function listEventRoutes(
  kv: Kv,
  internalId: string,
  below?: string,
  batchSize?: number,
): AsyncIterable<EventRoutes> {
  return listValues<EventRoutes>(kv, selectBelow(eventRoutesPrefix(internalId), below), {
    reverse: true,
    ...(batchSize === undefined ? {} : { batchSize }),
  });
}

function listIndexed(
  kv: Kv,
  internalId: string,
  selector: KvListSelector,
): AsyncGenerator<EventRoutes> {
  const keyOf = (eventId: string) => eventRoutesKey(internalId, eventId);
  return valuesOf(readIndexed<EventRoutes>(kv, selector, keyOf, { reverse: true }));
}

/**
 * A group's routed events that came with the delivery id `deliveryId`, newest first (usually
 * one), those with an id below `below` when it is given: read through its index.
 */
export function listEventRoutesByDelivery(
  kv: Kv,
  internalId: string,
  deliveryId: string,
  below?: string,
): AsyncGenerator<EventRoutes> {
  return listIndexed(
    kv,
    internalId,
    selectBelow(eventDeliveryPrefix(internalId, deliveryId), below),
  );
}

/**
 * A group's routed events about `repository` (`owner/name`, without regard to case), newest
 * first, those with an id below `below` when it is given: read through its index.
 */
export function listEventRoutesByRepository(
  kv: Kv,
  internalId: string,
  repository: string,
  below?: string,
): AsyncGenerator<EventRoutes> {
  const prefix = eventRepositoryPrefix(internalId, repository.toLowerCase());
  return listIndexed(kv, internalId, selectBelow(prefix, below));
}
