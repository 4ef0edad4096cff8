/**
 * Send logs in the admin API: pages filtered by group, route, status, platform, event,
 * delivery id, a text search and time (the time the event was accepted), newest first; one log; one
 * delivery's logs; and redelivery of a delivery's failed units. A super admin sees everything;
 * anyone else the logs of the groups they can read, and redelivers only where they may edit.
 * A log belongs to the group that has its internal id now (`history.ts`), not to whichever
 * group has the id it was made under.
 */
import type { Kv } from "../store/backend/types.ts";
import type { z } from "zod";
import type { Principal } from "../auth/principal.ts";
import type { Config } from "../config.ts";
import { HttpError } from "../fresh/mod.ts";
import { newAuditEntry } from "../store/telemetry/audit.ts";
import {
  getSendLog,
  historyIdOf,
  listDeliveryLogs,
  listSendLogs,
  type SendLog,
  type SendLogQuery,
} from "../store/delivery/send_logs.ts";
import { redeliver } from "../store/delivery/units.ts";
import { actorOf } from "./guards.ts";
import { historyAccess, historyScope } from "./history.ts";
import { collectPage, type Page, pageWindow, requireCursor, type Source } from "./pages.ts";
import { isId } from "../ids.ts";
import type { logsQuerySchema } from "./schemas.ts";

/** The logs query, as validated by `logsQuerySchema`. */
type LogsQuery = z.output<typeof logsQuerySchema>;

const FETCH_SIZE = 100;

/** A send log as the API shows it: without the internal id of its group. */
export function publicLog({ groupInternalId: _internal, ...log }: SendLog): SendLog {
  return log;
}

function sendLogs(kv: Kv, query: SendLogQuery): Source<SendLog> {
  return async function* (below) {
    let cursor = below;
    do {
      const page = await listSendLogs(kv, { ...query, cursor, limit: FETCH_SIZE });
      yield* page.items;
      cursor = page.cursor;
    } while (cursor !== undefined);
  };
}

/** The texts of a log that the `q` search looks in. */
function searchedTexts(log: SendLog): (string | undefined)[] {
  const target = log.target.platform === "discord"
    ? [log.target.channelId, log.target.threadId]
    : [log.target.chatId, log.target.topicId?.toString()];
  return [
    log.id,
    log.deliveryId,
    log.eventId,
    log.action === undefined ? log.event : `${log.event}.${log.action}`,
    log.repository,
    log.groupId,
    log.routeId,
    ...target,
    log.messageId,
    log.error,
    log.templateError,
    log.digestId,
  ];
}

function matcher(query: LogsQuery): (log: SendLog) => boolean {
  const [kind, ...action] = query.event?.split(".") ?? [];
  const text = query.q?.toLowerCase();
  return (log) =>
    (query.platform === undefined || log.platform === query.platform) &&
    (query.routeId === undefined || log.routeId === query.routeId) &&
    (kind === undefined || log.event === kind) &&
    (action.length === 0 || log.action === action.join(".")) &&
    (text === undefined ||
      searchedTexts(log).some((value) => value?.toLowerCase().includes(text)));
}

/** `GET /admin/api/logs`: one page of the send logs the caller may see. */
export async function queryLogs(
  kv: Kv,
  principal: Principal,
  query: LogsQuery,
): Promise<Page<SendLog>> {
  requireCursor(query.cursor, (id) => isId("sendLog", id));
  const base = { status: query.status, deliveryId: query.deliveryId };
  const scope = await historyScope(kv, principal, query.groupId);
  const sources: Source<SendLog>[] = scope === null
    ? [sendLogs(kv, base)]
    : scope.map((groupInternalId) =>
      sendLogs(kv, { ...base, groupInternalId, routeId: query.routeId })
    );
  const page = await collectPage(sources, {
    idOf: (log) => log.id,
    keep: matcher(query),
    ...pageWindow(query),
  });
  return { ...page, items: page.items.map(publicLog) };
}

/**
 * `GET /admin/api/logs/:id`: one send log (404 unknown, 403 not readable). A log of a deleted
 * group is unknown to all but a super admin, so a group created with its id learns nothing of it.
 */
export async function getLog(kv: Kv, principal: Principal, logId: string): Promise<SendLog> {
  const log = await getSendLog(kv, logId);
  const access = await historyAccess(kv, principal);
  const deleted = log !== null && access.groupOf(historyIdOf(log)) === undefined;
  if (!log || (deleted && !principal.superAdmin)) {
    throw new HttpError(404, `Unknown send log ${logId}`);
  }
  access.require(historyIdOf(log), "read", log.groupId);
  return publicLog(log);
}

/** The delivery's logs the caller may read (404 when none), and all of them. */
async function deliveryLogs(kv: Kv, principal: Principal, deliveryId: string) {
  const access = await historyAccess(kv, principal);
  const all = await listDeliveryLogs(kv, deliveryId);
  const readable = all.filter((log) => access.canRead(historyIdOf(log)));
  if (readable.length === 0) throw new HttpError(404, `Unknown delivery ${deliveryId}`);
  return { access, all, readable };
}

/** `GET /admin/api/delivery/:deliveryId`: the delivery's logs in the caller's groups. */
export async function getDelivery(kv: Kv, principal: Principal, deliveryId: string) {
  const { readable } = await deliveryLogs(kv, principal, deliveryId);
  return { deliveryId, items: readable.map(publicLog) };
}

/**
 * `POST /admin/api/delivery/:deliveryId/redeliver`: sends the delivery's failed and dead units
 * again. The caller must be able to edit every group the delivery reached (the groups that
 * have those units' history now; a deleted group's units only a super admin may redeliver).
 * Each unit sent again is audited (`delivery.redeliver`) in the write that requeues it.
 */
export async function redeliverDelivery(
  kv: Kv,
  config: Config,
  principal: Principal,
  deliveryId: string,
) {
  const { access, all } = await deliveryLogs(kv, principal, deliveryId);
  const reached = new Map(all.map((log) => [historyIdOf(log), log.groupId]));
  for (const [internalId, groupId] of reached) access.require(internalId, "edit", groupId);
  const now = Date.now();
  const result = await redeliver(kv, deliveryId, {
    retentionDays: config.sendLogRetentionDays,
    now,
    audit: (log) => {
      const groupId = access.groupOf(historyIdOf(log));
      return newAuditEntry({
        actor: actorOf(principal),
        action: "delivery.redeliver",
        ...(groupId === undefined ? {} : { groupId }),
        target: `delivery:${deliveryId}`,
        detail: { unit: log.id },
      }, now);
    },
  });
  return { ok: true as const, requeued: result.requeued, expired: result.expired };
}
