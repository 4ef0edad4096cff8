import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { listRoutes, replaceAllRoutes } from "@/lib/admin/routes.ts";
import { define } from "@/lib/state.ts";

/** Every route the caller can read; replacing them. */
export const handler = define.handlers({
  GET: apiHandler(E.listRoutes, ({ kv, principal }) => listRoutes(kv, principal)),
  PUT: apiHandler(
    E.replaceRoutes,
    ({ kv, principal, body, expected }) => replaceAllRoutes(kv, principal, body, expected),
  ),
});
