import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { listGroupRoutes, replaceRoutesOfGroup } from "@/lib/admin/routes.ts";
import { define } from "@/lib/state.ts";

/** One group's routes; replacing them. */
export const handler = define.handlers({
  GET: apiHandler(
    E.listGroupRoutes,
    ({ kv, principal, params }) => listGroupRoutes(kv, principal, params.id),
  ),
  PUT: apiHandler(
    E.replaceGroupRoutes,
    ({ kv, principal, params, body, expected }) =>
      replaceRoutesOfGroup(kv, principal, params.id, body, expected),
  ),
});
