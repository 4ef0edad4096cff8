/**
 * Shared setup of the admin API tests: an app with a super admin, two groups with one member
 * of each role, sessions, and a JSON client. No tests here.
 */
import type { Kv } from "../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { ulid } from "../lib/ulid.ts";
import { allowTargets } from "../lib/store/config/allowed_targets.ts";
import {
  addAuditEntry,
  type AuditInput,
  currentInternalIds,
  newAuditEntry,
} from "../lib/store/telemetry/audit.ts";
import { countOutcome } from "../lib/store/telemetry/metrics.ts";
import { putSendLog, type SendLog } from "../lib/store/delivery/send_logs.ts";
import { createSession } from "../lib/store/auth/sessions.ts";
import { listGroupEntries, putGroup } from "../lib/store/config/groups.ts";
import type { Group, Route, Target } from "../lib/types.ts";
import { startTestApp, type TestApp } from "./_helpers.ts";

/** A person in the fixtures. */
export interface Person {
  userId: string;
  login: string;
}

/** Everyone the fixtures know, by the part they play for group `alpha`. */
export const PEOPLE = {
  owner: { userId: "1", login: "olivia" },
  admin: { userId: "2", login: "adam" },
  viewer: { userId: "3", login: "vera" },
  otherOwner: { userId: "4", login: "otto" },
  superAdmin: { userId: "900", login: "sam" },
  stranger: { userId: "5", login: "stan" },
} satisfies Record<string, Person>;

/** The caller of a request: a person, or nobody signed in. */
export type Caller = keyof typeof PEOPLE | "none";

/** Group `alpha`: one owner, admin and viewer. */
export const ALPHA: Group = {
  id: "alpha",
  name: "Alpha",
  members: [
    { ...PEOPLE.owner, role: "owner" },
    { ...PEOPLE.admin, role: "admin" },
    { ...PEOPLE.viewer, role: "viewer" },
  ],
};

/** Group `beta`, owned by someone else. */
export const BETA: Group = {
  id: "beta",
  name: "Beta",
  members: [{ ...PEOPLE.otherOwner, role: "owner" }],
};

/** The target `route()` gives a route. */
export const ROUTE_TARGET: Target = { platform: "discord", channelId: "123456789" };

/** A valid route of a group. */
export function route(groupId: string, id: string, extra: Partial<Route> = {}): Route {
  return {
    id,
    name: `Route ${id}`,
    enabled: true,
    groupId,
    filters: [{ type: "event", value: "push" }],
    targets: [ROUTE_TARGET],
    ...extra,
  };
}

/** Allows targets (by default the one `route()` uses) for a group, as a super admin would. */
export async function allowTarget(
  kv: Kv,
  groupId: string,
  targets: Target[] = [ROUTE_TARGET],
): Promise<void> {
  const result = await allowTargets(kv, groupId, targets, PEOPLE.superAdmin, "admin");
  assert.ok(result.ok);
}

/** An answer, read. */
export interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
  headers: Headers;
}

/** The test app with the fixtures, and a client that signs in as anyone. */
export interface AdminApp extends AsyncDisposable {
  t: TestApp;
  kv: Kv;
  call(
    caller: Caller,
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<Answer>;
  /** The session cookie of a person (created once). */
  cookie(caller: Exclude<Caller, "none">): Promise<string>;
}

/** Starts an app with groups `alpha` and `beta` and `sam` as super admin. */
export async function startAdminApp(env: Record<string, string> = {}): Promise<AdminApp> {
  const t = await startTestApp({ ADMIN_USER_IDS: PEOPLE.superAdmin.userId, ...env });
  await putGroup(t.kv, ALPHA);
  await putGroup(t.kv, BETA);
  const cookies = new Map<string, string>();
  const cookie = async (caller: Exclude<Caller, "none">) => {
    let value = cookies.get(caller);
    if (!value) {
      const { sessionId } = await createSession(t.kv, PEOPLE[caller]);
      value = `switchyard_session=${sessionId}`;
      cookies.set(caller, value);
    }
    return value;
  };
  return {
    t,
    kv: t.kv,
    cookie,
    async call(caller, method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (caller !== "none") headers.cookie = await cookie(caller);
      if (options.body !== undefined) headers["content-type"] = "application/json";
      const res = await t.fetch(path, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // An HTML page or an empty body stays text.
      }
      return { status: res.status, body, headers: res.headers };
    },
    [Symbol.asyncDispose]: () => t[Symbol.asyncDispose](),
  };
}

/** A send log with defaults: an ok Discord push in `alpha`, accepted at `at`. */
export function sendLog(at: number, fields: Partial<SendLog> = {}): SendLog {
  const id = `${ulid(at)}-0`;
  return {
    id,
    deliveryId: `delivery-${id}`,
    eventId: id.slice(0, 26),
    event: "push",
    provider: "github",
    groupId: "alpha",
    routeId: "r1",
    platform: "discord",
    target: { platform: "discord", channelId: "123456789" },
    status: "ok",
    attempts: 1,
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

/**
 * Stores send logs and counts their outcomes, as the delivery worker does: a log without
 * `groupInternalId` gets the internal id of the group that has its `groupId` now.
 */
export async function storeSendLogs(kv: Kv, logs: readonly SendLog[]): Promise<void> {
  const entries = await listGroupEntries(kv);
  const internalIds = new Map(entries.map((entry) => [entry.group.id, entry.internalId]));
  for (const given of logs) {
    const groupInternalId = given.groupInternalId ?? internalIds.get(given.groupId);
    const log = groupInternalId === undefined ? given : { ...given, groupInternalId };
    const op = putSendLog(kv.atomic(), log, null, 24 * 60 * 60 * 1000);
    await countOutcome(op, log, log.createdAt).commit();
  }
}

/** Stores an audit entry made at `at` on its own, as history to read back. */
export async function storeAuditEntry(kv: Kv, input: AuditInput, at: number): Promise<void> {
  const op = addAuditEntry(kv.atomic(), newAuditEntry(input, at), await currentInternalIds(kv));
  assert.ok((await op.commit()).ok);
}
