import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { listVisibleGroups, replaceGroups } from "@/lib/admin/groups.ts";
import { define } from "@/lib/state.ts";

/** The groups the caller can read; replacing them. */
export const handler = define.handlers({
  GET: apiHandler(E.listGroups, ({ kv, principal }) => listVisibleGroups(kv, principal)),
  PUT: apiHandler(
    E.replaceGroups,
    ({ kv, principal, body, expected }) => replaceGroups(kv, principal, body.groups, expected),
  ),
});
