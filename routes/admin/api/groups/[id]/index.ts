import { ADMIN_ENDPOINTS as E } from "../../../../../lib/admin/endpoints.ts";
import { apiHandler } from "../../../../../lib/admin/endpoint.ts";
import { deleteGroup, readGroup, replaceGroup } from "../../../../../lib/admin/single_group.ts";
import { define } from "../../../../../lib/state.ts";

/** One group: reading, replacing and deleting it on its own. */
export const handler = define.handlers({
  GET: apiHandler(E.getGroup, ({ kv, principal, params }) => readGroup(kv, principal, params.id)),
  PUT: apiHandler(
    E.replaceGroup,
    ({ kv, principal, params, body, expected }) =>
      replaceGroup(kv, principal, params.id, body, expected),
  ),
  DELETE: apiHandler(
    E.deleteGroup,
    ({ kv, principal, params, expected }) => deleteGroup(kv, principal, params.id, expected),
  ),
});
