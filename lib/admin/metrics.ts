/**
 * `GET /admin/api/metrics`: delivery statistics from the delivery counters. A super admin
 * without `groupId` sees the whole instance; anyone else sees one group they can read, or the
 * sum over all of their groups (recent failures included only from those groups).
 */
import type { Principal } from "../auth/principal.ts";
import { type DeliveryMetrics, readMetrics } from "../store/metrics.ts";
import { requireRight } from "./guards.ts";

/** The metrics the caller may see (see the module comment). */
export async function queryMetrics(
  kv: Deno.Kv,
  principal: Principal,
  query: { groupId?: string; days?: number },
): Promise<DeliveryMetrics> {
  const { groupId, days } = query;
  if (groupId !== undefined) {
    requireRight(principal, groupId, "read");
    return await readMetrics(kv, { groupIds: [groupId], days });
  }
  if (principal.superAdmin) return await readMetrics(kv, { days });
  return await readMetrics(kv, { groupIds: Object.keys(principal.roles), days });
}
