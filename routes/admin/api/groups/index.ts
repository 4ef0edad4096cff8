import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { listVisibleGroups, replaceGroups } from "@/lib/admin/groups.ts";
import { define } from "@/lib/state.ts";
import { createGroup } from "@/lib/admin/single_group.ts";

/** The groups the caller can read; replacing them; creating one. */
export const handler = define.handlers({
  GET: apiHandler(E.listGroups, ({ kv, principal }) => listVisibleGroups(kv, principal)),
  PUT: apiHandler(
    E.replaceGroups,
    ({ kv, principal, body, expected }) => replaceGroups(kv, principal, body.groups, expected),
  ),
  POST: apiHandler(E.createGroup, ({ kv, principal, body }) => createGroup(kv, principal, body)),
});
