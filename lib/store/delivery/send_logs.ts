/**
 * Send logs: one record per delivery unit (event × route × target).
 * Records live under `["send_logs", id]`; ids start with the event's ulid, so
 * they sort by the time the event was accepted. Secondary indexes (by group,
 * route, status, group and status, delivery id) hold the id and are written in
 * the same atomic operation as the record; records and index entries expire
 * after the retention period. The group indexes are keyed by the group's
 * internal id (`group_set.ts`), so logs follow their group through renames and
 * never pass to a later group with the same id.
 */
import type { AtomicOperation, Kv, KvEntry, KvKey } from "../backend/types.ts";
import type { Provider, Target } from "../../types.ts";
import { listValues, readIndexed, valuesOf } from "../batch.ts";
import { readGroupEntry } from "../config/group_set.ts";
import {
  selectBelow,
  sendLogByDeliveryKey,
  sendLogByDeliveryPrefix,
  sendLogByGroupKey,
  sendLogByGroupPrefix,
  sendLogByGroupStatusKey,
  sendLogByGroupStatusPrefix,
  sendLogByRouteKey,
  sendLogByRoutePrefix,
  sendLogByStatusKey,
  sendLogByStatusPrefix,
  sendLogKey,
  sendLogsPrefix,
} from "../keys.ts";

/**
 * Where a unit stands: `retrying` until it is final (queued, in flight, or
 * waiting for a retry or a rate limit), then `ok`, `failed` (refused by the
 * platform or not configured) or `dead` (retries exhausted).
 */
export type SendStatus = "ok" | "failed" | "retrying" | "dead";

/** One send log record. */
export interface SendLog {
  id: string;
  /** The sender's delivery id (`X-GitHub-Delivery` …), or the event id when it sent none. */
  deliveryId: string;
  /** The accepted event this unit delivers. */
  eventId: string;
  /** The event kind (`push`, `pull_request`, `custom` …). */
  event: string;
  action?: string;
  /** The repository the event is about (`owner/name`), when its payload names one. */
  repository?: string;
  provider: Provider;
  /** The group's id when the unit was made. */
  groupId: string;
  /**
   * The group's internal id, which its history is kept under. Absent in logs written before
   * internal ids: the group id then, which is the internal id those groups kept.
   */
  groupInternalId?: string;
  routeId: string;
  platform: Target["platform"];
  target: Target;
  status: SendStatus;
  /** Platform calls made so far. */
  attempts: number;
  httpStatus?: number;
  error?: string;
  /** Why the route's message template failed for this event (the built-in message was sent). */
  templateError?: string;
  messageId?: string;
  /** True when the unit edited a message in place (see lib/delivery/edit_in_place.ts). */
  edited?: boolean;
  /** The message the unit edited (a progress message, or a card whose notice is `messageId`). */
  editedMessageId?: string;
  /** Why nothing was sent although the unit is done (an event older than what the chat shows). */
  skipped?: string;
  /** The digest the unit was gathered into (docs/noise.md); its message is the digest's. */
  digestId?: string;
  /** When the next attempt is due, while `retrying` after a failure or a 429 (Unix ms). */
  nextAttemptAt?: number;
  /** Unix milliseconds. */
  createdAt: number;
  /** Unix milliseconds. */
  updatedAt: number;
}

/** One page of send logs, newest first; `cursor` fetches the next page. */
interface SendLogPage {
  items: SendLog[];
  cursor?: string;
}

/** Filters of {@link listSendLogs}; `routeId` narrows within the group. */
export interface SendLogQuery {
  /** The group that has this id now: all of its logs, under whatever id they were made. */
  groupId?: string;
  /** The group with this internal id (instead of `groupId`). */
  groupInternalId?: string;
  routeId?: string;
  status?: SendStatus;
  deliveryId?: string;
  /** Page size, 1..200 (default 50). */
  limit?: number;
  /** The `cursor` of the previous page. */
  cursor?: string;
}

/** SEND_LOG_RETENTION_DAYS when unset. */
export const DEFAULT_RETENTION_DAYS = 30;

/** Retention in days as the `expireIn` of KV writes. */
export function retentionMs(days: number): number {
  return days * 24 * 60 * 60 * 1000;
}

/** The internal id of the group whose history the log is part of. */
export function historyIdOf(log: SendLog): string {
  return log.groupInternalId ?? log.groupId;
}

function indexKeys(log: SendLog): KvKey[] {
  const group = historyIdOf(log);
  return [
    sendLogByGroupKey(group, log.id),
    sendLogByRouteKey(group, log.routeId, log.id),
    sendLogByStatusKey(log.status, log.id),
    sendLogByGroupStatusKey(group, log.status, log.id),
    sendLogByDeliveryKey(log.deliveryId, log.id),
  ];
}

/**
 * Adds the writes of a record and its index entries to an atomic operation,
 * removing the index entries of `previous` that the new status retires.
 */
export function putSendLog(
  op: AtomicOperation,
  log: SendLog,
  previous: SendLog | null,
  expireIn: number,
): AtomicOperation {
  if (previous && previous.status !== log.status) {
    op.delete(sendLogByStatusKey(previous.status, log.id));
    op.delete(sendLogByGroupStatusKey(historyIdOf(previous), previous.status, log.id));
  }
  op.set(sendLogKey(log.id), log, { expireIn });
  for (const key of indexKeys(log)) op.set(key, log.id, { expireIn });
  return op;
}

/** The send log with that id, with its versionstamp, or null. */
export async function getSendLogEntry(
  kv: Kv,
  logId: string,
): Promise<KvEntry<SendLog> | null> {
  const entry = await kv.get<SendLog>(sendLogKey(logId));
  return entry.versionstamp === null ? null : entry as KvEntry<SendLog>;
}

/** The send log with that id, or null. */
export async function getSendLog(kv: Kv, logId: string): Promise<SendLog | null> {
  return (await kv.get<SendLog>(sendLogKey(logId))).value;
}

/** A query whose group is named by internal id only. */
type ResolvedQuery = Omit<SendLogQuery, "groupId">;

function indexFor(query: ResolvedQuery): { prefix: KvKey; byId: boolean } {
  const group = query.groupInternalId;
  if (query.deliveryId !== undefined) {
    return { prefix: sendLogByDeliveryPrefix(query.deliveryId), byId: true };
  }
  if (group !== undefined && query.routeId !== undefined) {
    return { prefix: sendLogByRoutePrefix(group, query.routeId), byId: true };
  }
  if (group !== undefined && query.status !== undefined) {
    return { prefix: sendLogByGroupStatusPrefix(group, query.status), byId: true };
  }
  if (group !== undefined) {
    return { prefix: sendLogByGroupPrefix(group), byId: true };
  }
  if (query.status !== undefined) {
    return { prefix: sendLogByStatusPrefix(query.status), byId: true };
  }
  return { prefix: sendLogsPrefix(), byId: false };
}

function matches(log: SendLog, query: ResolvedQuery): boolean {
  return (query.groupInternalId === undefined || historyIdOf(log) === query.groupInternalId) &&
    (query.routeId === undefined || log.routeId === query.routeId) &&
    (query.status === undefined || log.status === query.status) &&
    (query.deliveryId === undefined || log.deliveryId === query.deliveryId);
}

const MAX_PAGE = 200;

/** The records under `prefix` newest first, below the cursor: read through an index or listed. */
function newestFirst(
  kv: Kv,
  { prefix, byId }: { prefix: KvKey; byId: boolean },
  cursor: string | undefined,
): AsyncIterable<SendLog> {
  const selector = selectBelow(prefix, cursor);
  const options = { reverse: true };
  if (!byId) return listValues<SendLog>(kv, selector, options);
  return valuesOf(readIndexed<SendLog>(kv, selector, sendLogKey, options));
}

/**
 * Send logs, newest first, filtered by any of group, route (within a group),
 * status and delivery id. The narrowest index is read and the other filters
 * are applied to the records; `cursor` is the id of the last item of the
 * previous page.
 */
export async function listSendLogs(
  kv: Kv,
  { groupId, ...rest }: SendLogQuery = {},
): Promise<SendLogPage> {
  const query: ResolvedQuery = rest;
  if (groupId !== undefined) {
    const { entry } = await readGroupEntry(kv, groupId);
    if (entry === null) return { items: [] };
    query.groupInternalId = entry.internalId;
  }
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? 50), 1), MAX_PAGE);
  const items: SendLog[] = [];
  for await (const log of newestFirst(kv, indexFor(query), query.cursor)) {
    if (matches(log, query)) items.push(log);
    if (items.length >= limit) break;
  }
  return items.length >= limit ? { items, cursor: items[items.length - 1].id } : { items };
}

/** Every send log of one delivery (all its events, routes and targets), oldest first. */
export async function listDeliveryLogs(kv: Kv, deliveryId: string): Promise<SendLog[]> {
  const index = { prefix: sendLogByDeliveryPrefix(deliveryId) };
  return await Array.fromAsync(valuesOf(readIndexed<SendLog>(kv, index, sendLogKey)));
}
