import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { listGroupFragments, replaceGroupFragments } from "@/lib/admin/fragments.ts";
import { define } from "@/lib/state.ts";

/** One group's filter fragments; replacing them. */
export const handler = define.handlers({
  GET: apiHandler(
    E.listFragments,
    ({ kv, principal, params }) => listGroupFragments(kv, principal, params.id),
  ),
  PUT: apiHandler(
    E.replaceFragments,
    ({ kv, principal, params, body, expected }) =>
      replaceGroupFragments(kv, principal, params.id, body.fragments, expected),
  ),
});
