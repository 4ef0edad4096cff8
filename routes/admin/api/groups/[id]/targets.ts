import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { listGroupTargets, replaceGroupTargets } from "@/lib/admin/targets.ts";
import { define } from "@/lib/state.ts";

/** The chat targets one group may post into; replacing them. */
export const handler = define.handlers({
  GET: apiHandler(
    E.listGroupTargets,
    ({ kv, principal, params }) => listGroupTargets(kv, principal, params.id),
  ),
  PUT: apiHandler(
    E.replaceGroupTargets,
    ({ kv, principal, params, body, expected }) =>
      replaceGroupTargets(kv, principal, params.id, body.targets, expected),
  ),
});
