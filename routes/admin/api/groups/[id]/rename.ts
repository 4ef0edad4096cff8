import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { renameGroupFor } from "@/lib/admin/groups.ts";
import { define } from "@/lib/state.ts";

/** Renames a group; everything that belongs to it follows. */
export const handler = define.handlers({
  PUT: apiHandler(
    E.renameGroup,
    ({ kv, principal, params, body }) => renameGroupFor(kv, principal, params.id, body),
  ),
});
