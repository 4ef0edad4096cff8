/**
 * How far a person's groups are through the first-run path the console overview lists:
 * a group, its webhook secret, a route, a delivery. Each step is a handful of small reads
 * (no record is read whole), so the overview can ask on every visit.
 */
import type { Kv, KvKey } from "../backend/types.ts";
import { GET_MANY_LIMIT } from "../batch.ts";
import { routesPointerKey, sendLogByGroupPrefix, sendLogsPrefix, tenantKey } from "../keys.ts";
import type { RoutesPointer } from "./routes.ts";
import { getRoutes } from "./routes.ts";

/** Which steps of the first-run path are done. */
export interface SetupProgress {
  /** A group exists. */
  group: boolean;
  /** One of the groups has a webhook secret (its own ingress). */
  webhook: boolean;
  /** One of the groups has a route. */
  route: boolean;
  /** One of the groups has a send log: an event went all the way to a chat. */
  delivery: boolean;
}

/** The groups to look at: their ids and internal ids; `everything` for a super admin. */
interface ProgressScope {
  groups: readonly { id: string; internalId: string }[];
  everything: boolean;
}

const DONE: SetupProgress = { group: true, webhook: true, route: true, delivery: true };

async function anyListed(kv: Kv, prefix: KvKey): Promise<boolean> {
  for await (const _ of kv.list({ prefix }, { limit: 1 })) return true;
  return false;
}

async function anyDelivery(kv: Kv, scope: ProgressScope): Promise<boolean> {
  if (scope.everything) return await anyListed(kv, sendLogsPrefix());
  for (const group of scope.groups) {
    if (await anyListed(kv, sendLogByGroupPrefix(group.internalId))) return true;
  }
  return false;
}

async function anyWebhookSecret(kv: Kv, scope: ProgressScope): Promise<boolean> {
  for (let start = 0; start < scope.groups.length; start += GET_MANY_LIMIT) {
    const batch = scope.groups.slice(start, start + GET_MANY_LIMIT);
    const entries = await kv.getMany(batch.map((group) => tenantKey(group.id)));
    if (entries.some((entry) => entry.versionstamp !== null)) return true;
  }
  return false;
}

async function anyRoute(kv: Kv, scope: ProgressScope): Promise<boolean> {
  const pointer = await kv.get<RoutesPointer>(routesPointerKey());
  if (!pointer.value || pointer.value.count === 0) return false;
  if (scope.everything) return true;
  const ids = new Set(scope.groups.map((group) => group.id));
  return (await getRoutes(kv)).routes.some((route) => ids.has(route.groupId));
}

/**
 * The first-run steps done within `scope`. A delivery means the whole path was walked, so
 * then every step counts as done without reading further.
 */
export async function readSetupProgress(kv: Kv, scope: ProgressScope): Promise<SetupProgress> {
  if (scope.groups.length === 0) {
    return { group: false, webhook: false, route: false, delivery: false };
  }
  if (await anyDelivery(kv, scope)) return DONE;
  const [webhook, route] = await Promise.all([anyWebhookSecret(kv, scope), anyRoute(kv, scope)]);
  return { group: true, webhook, route, delivery: false };
}
