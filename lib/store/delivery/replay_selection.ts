/**
 * The send logs a bulk replay selects: one group's logs (by its internal id), narrowed by
 * route, target (a channel or chat, its threads and topics included), status, event kind and
 * the time the event was accepted, read oldest first through the narrowest index (the route's,
 * or the group's by status, or the group's) between the ids of the time range. A walk starts
 * after a cursor (the id of the last log looked at), so a replay continues where it stopped.
 */
import type { Kv, KvKey } from "../backend/types.ts";
import { readIndexed } from "../batch.ts";
import {
  sendLogByGroupPrefix,
  sendLogByGroupStatusPrefix,
  sendLogByRoutePrefix,
  sendLogKey,
} from "../keys.ts";
import type { SendLog, SendStatus } from "./send_logs.ts";
import { encodeUlidTime, ULID_TIME_MAX } from "../../ulid.ts";
import { targetRefKey } from "../../target_ref.ts";

/** Which outcomes a replay selects: `undelivered` is `failed` and `dead`. */
type ReplayStatusFilter = "undelivered" | "failed" | "dead" | "ok" | "any";

/** What a replay selects within its group. */
export interface ReplayFilter {
  routeId?: string;
  /** `discord:<channel id>` or `telegram:<chat id>` (as `targetRefKey` writes it). */
  target?: string;
  status: ReplayStatusFilter;
  /** An event kind, or `kind.action`. */
  event?: string;
  /** Events accepted at or after this time (Unix ms). */
  from?: number;
  /** Events accepted before this time (Unix ms). */
  to: number;
}

const STATUSES_OF: Record<ReplayStatusFilter, readonly SendStatus[] | null> = {
  undelivered: ["failed", "dead"],
  failed: ["failed"],
  dead: ["dead"],
  ok: ["ok"],
  any: null,
};

/** Whether a log of the group is one the filter selects (the time range aside). */
function selectsLog(filter: ReplayFilter, log: SendLog): boolean {
  const statuses = STATUSES_OF[filter.status];
  const [kind, ...action] = filter.event?.split(".") ?? [];
  return (statuses === null || statuses.includes(log.status)) &&
    (filter.routeId === undefined || log.routeId === filter.routeId) &&
    (filter.target === undefined || targetRefKey(log.target) === filter.target) &&
    (kind === undefined || log.event === kind) &&
    (action.length === 0 || log.action === action.join("."));
}

/** The lowest id of an event accepted at `time`, as a key part (ids start with the event's ulid). */
function idAt(time: number): string {
  return encodeUlidTime(Math.min(Math.max(0, Math.floor(time)), ULID_TIME_MAX));
}

/** The index prefixes the walk reads, merged in id order. */
function prefixesOf(internalId: string, filter: ReplayFilter): KvKey[] {
  const statuses = STATUSES_OF[filter.status];
  if (filter.routeId !== undefined) return [sendLogByRoutePrefix(internalId, filter.routeId)];
  if (statuses === null) return [sendLogByGroupPrefix(internalId)];
  return statuses.map((status) => sendLogByGroupStatusPrefix(internalId, status));
}

/** The logs under one index prefix within the time range, after `after`, oldest first. */
function logsUnder(kv: Kv, prefix: KvKey, filter: ReplayFilter, after: string | undefined) {
  const start = after === undefined ? idAt(filter.from ?? 0) : `${after}\0`;
  return readIndexed<SendLog>(kv, {
    start: [...prefix, start],
    end: [...prefix, idAt(filter.to)],
  }, sendLogKey);
}

/** Merges ascending streams of logs into one, by id. */
async function* mergeById(streams: AsyncGenerator<{ value: SendLog }>[]) {
  const heads = await Promise.all(streams.map((stream) => stream.next()));
  while (true) {
    let lowest = -1;
    heads.forEach((head, index) => {
      if (head.done) return;
      if (
        lowest < 0 || head.value.value.id < (heads[lowest].value as { value: SendLog }).value.id
      ) {
        lowest = index;
      }
    });
    if (lowest < 0) return;
    yield (heads[lowest].value as { value: SendLog }).value;
    heads[lowest] = await streams[lowest].next();
  }
}

/**
 * The group's logs the filter selects, oldest first, after the log `after` (from the start of
 * the time range without it). Lazy: stopping early stops reading.
 */
export async function* selectedLogs(
  kv: Kv,
  internalId: string,
  filter: ReplayFilter,
  after?: string,
): AsyncGenerator<SendLog> {
  const streams = prefixesOf(internalId, filter).map((prefix) =>
    logsUnder(kv, prefix, filter, after)
  );
  for await (const log of mergeById(streams)) {
    if (selectsLog(filter, log)) yield log;
  }
}
