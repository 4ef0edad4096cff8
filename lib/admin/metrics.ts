/**
 * `GET /admin/api/metrics`: delivery statistics from the delivery counters. A super admin
 * without `groupId` sees the whole instance; anyone else sees one group they can read, or the
 * sum over all of their groups (recent failures included only from those groups). A group's
 * counts are its own history, under whatever ids it had (`history.ts`).
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { type DeliveryMetrics, readMetrics } from "../store/telemetry/metrics.ts";
import { historyScope } from "./history.ts";
import { publicLog } from "./logs.ts";

/** The metrics the caller may see (see the module comment). */
export async function queryMetrics(
  kv: Kv,
  principal: Principal,
  query: { groupId?: string; days?: number },
): Promise<DeliveryMetrics> {
  const groupInternalIds = await historyScope(kv, principal, query.groupId) ?? undefined;
  const metrics = await readMetrics(kv, { groupInternalIds, days: query.days });
  return { ...metrics, recentFailures: metrics.recentFailures.map(publicLog) };
}
