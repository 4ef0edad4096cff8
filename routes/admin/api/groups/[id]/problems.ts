import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { listGroupProblems } from "@/lib/admin/route_problems.ts";
import { define } from "@/lib/state.ts";

/** What keeps the group's routes from reaching the chat. */
export const handler = define.handlers({
  GET: apiHandler(
    E.listGroupProblems,
    ({ ctx, kv, principal, params }) =>
      listGroupProblems(kv, ctx.state.config, principal, params.id),
  ),
});
