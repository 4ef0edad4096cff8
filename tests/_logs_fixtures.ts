/**
 * A small instance's history for the console's logs, audit and overview tests: two groups with
 * routes, send logs over the last days (every status, both platforms, with latencies), one
 * failed unit that can be sent again, and audit entries. No tests here.
 */
import type { Kv } from "../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { ulid } from "../lib/ulid.ts";
import { storeAuditEntry } from "./_admin_helpers.ts";
import { listGroupEntries } from "../lib/store/config/groups.ts";
import { getSendLogEntry, type SendLog } from "../lib/store/delivery/send_logs.ts";
import { createUnit, recordOutcome } from "../lib/store/delivery/units.ts";
import { laneKeyFor } from "../lib/target_ref.ts";
import type { Route, Target } from "../lib/types.ts";
import { storeSendLogs } from "./_admin_helpers.ts";
import { storeRoutes } from "./_delivery_helpers.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const RETENTION = 30 * DAY;

/** The Discord channel of group `web`. */
export const WEB_DISCORD: Target = { platform: "discord", channelId: "111222333444555666" };
/** The Telegram supergroup of group `web`. */
export const WEB_TELEGRAM: Target = { platform: "telegram", chatId: "-1001234567890" };
/** The Telegram channel of group `ops`. */
export const OPS_TELEGRAM: Target = { platform: "telegram", chatId: "@opsalerts" };

function route(groupId: string, id: string, name: string, targets: Target[]): Route {
  return { id, name, enabled: true, groupId, filters: [{ type: "event", value: "*" }], targets };
}

/** The routes: `web` has `pr-bugs` (Discord) and `releases` (Telegram), `ops` has `alerts`. */
export const ROUTES: Route[] = [
  route("web", "pr-bugs", "PR bugs to Discord", [WEB_DISCORD]),
  route("web", "releases", "Releases to Telegram", [WEB_TELEGRAM]),
  route("ops", "alerts", "Ops alerts", [OPS_TELEGRAM]),
];

let sequence = 0;

/** A send log of an event accepted at `acceptedAt`, answered `latencyMs` later. */
export function historyLog(
  acceptedAt: number,
  latencyMs: number,
  fields: Partial<SendLog> & Pick<SendLog, "groupId" | "routeId" | "target">,
): SendLog {
  const eventId = ulid(acceptedAt);
  const id = `${eventId}-${(sequence++).toString(16)}`;
  return {
    id,
    deliveryId: `gh-${id.slice(-8).toLowerCase()}`,
    eventId,
    event: "push",
    provider: "github",
    platform: fields.target.platform,
    status: "ok",
    attempts: 1,
    createdAt: acceptedAt + latencyMs,
    updatedAt: acceptedAt + latencyMs,
    ...fields,
  };
}

/** What {@link seedHistory} stored, for assertions. */
export interface SeededHistory {
  logs: SendLog[];
  /** The failed unit with a body, which redelivery puts back in its lane. */
  failed: SendLog;
}

/**
 * Stores a failed unit as the delivery worker leaves it: created (with its rendered body and
 * lane entry), then its outcome recorded as `failed`.
 */
export async function storeFailedUnit(kv: Kv, log: SendLog): Promise<void> {
  const lane = laneKeyFor(log.target);
  const queued: SendLog = { ...log, status: "retrying", attempts: 0 };
  assert.ok(await createUnit(kv, { log: queued, body: { content: "hello" }, lane }, 0, RETENTION));
  const entry = await getSendLogEntry(kv, log.id);
  assert.ok(entry);
  await recordOutcome(
    kv,
    lane,
    entry,
    log,
    { logId: log.id, failures: 0 },
    log.updatedAt,
    RETENTION,
  );
}

/**
 * Seeds groups `web` and `ops` with their routes, a week of send logs and audit entries, and
 * one redeliverable failed unit (delivery `gh-redeliver-me`, 10 minutes ago).
 */
export async function seedHistory(kv: Kv, now = Date.now()): Promise<SeededHistory> {
  await storeRoutes(kv, ROUTES);
  const logs: SendLog[] = [];
  for (let day = 6; day >= 0; day--) {
    const base = now - day * DAY - 3 * 60 * MINUTE;
    for (let i = 0; i < 4 + (day % 3); i++) {
      const at = base + i * 7 * MINUTE;
      const failedOne = i === 0 && day % 2 === 0;
      logs.push(historyLog(at, 300 + 150 * i + 40 * day, {
        groupId: "web",
        routeId: i % 2 === 0 ? "pr-bugs" : "releases",
        target: i % 2 === 0 ? WEB_DISCORD : WEB_TELEGRAM,
        event: i % 2 === 0 ? "pull_request" : "release",
        action: i % 2 === 0 ? "opened" : "published",
        repository: i % 2 === 0 ? "octo-org/switchyard" : "octo-org/website",
        messageId: failedOne ? undefined : String(1000 + day * 10 + i),
        ...(failedOne
          ? { status: "dead", attempts: 5, httpStatus: 500, error: "HTTP 500: Internal error" }
          : { httpStatus: 200 }),
      }));
    }
    logs.push(historyLog(base + 50 * MINUTE, 900 + 100 * day, {
      groupId: "ops",
      routeId: "alerts",
      target: OPS_TELEGRAM,
      event: "workflow_run",
      action: "completed",
      repository: "octo-org/infra",
      httpStatus: 200,
      messageId: String(77 + day),
    }));
  }
  await storeSendLogs(kv, logs);
  const failed = historyLog(now - 10 * MINUTE, 0, {
    groupId: "web",
    routeId: "pr-bugs",
    target: WEB_DISCORD,
    deliveryId: "gh-redeliver-me",
    event: "pull_request",
    action: "opened",
    repository: "octo-org/switchyard",
    status: "failed",
    attempts: 1,
    httpStatus: 403,
    error: "Discord 403: Missing Permissions",
  });
  await storeFailedUnit(kv, await withInternalId(kv, failed));
  const actor = { userId: "1", login: "owner" };
  await storeAuditEntry(kv, { actor, action: "routes.replace", groupId: "web" }, now - 3 * DAY);
  await storeAuditEntry(kv, {
    actor: { userId: "7", login: "grace" },
    action: "invite.create",
    groupId: "ops",
  }, now - DAY);
  await storeAuditEntry(
    kv,
    { actor, action: "webhook.regenerate", groupId: "web" },
    now - 60 * MINUTE,
  );
  return { logs: [...logs, failed], failed };
}

async function withInternalId(kv: Kv, log: SendLog): Promise<SendLog> {
  const entry = (await listGroupEntries(kv)).find((e) => e.group.id === log.groupId);
  return entry ? { ...log, groupInternalId: entry.internalId } : log;
}
