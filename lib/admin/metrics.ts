/**
 * `GET /admin/api/metrics`: delivery statistics from the delivery counters. A super admin
 * without `groupId` sees the whole instance; anyone else sees one group they can read, or the
 * sum over all of their groups (recent failures included only from those groups).
 */
import type { Principal } from "../auth/principal.ts";
import { type DeliveryMetrics, readMetrics } from "../store/metrics.ts";
import { readScope } from "./guards.ts";

/** The metrics the caller may see (see the module comment). */
export async function queryMetrics(
  kv: Deno.Kv,
  principal: Principal,
  query: { groupId?: string; days?: number },
): Promise<DeliveryMetrics> {
  const groupIds = readScope(principal, query.groupId) ?? undefined;
  return await readMetrics(kv, { groupIds, days: query.days });
}
