import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { queryAudit } from "@/lib/admin/audit.ts";
import { define } from "@/lib/state.ts";

/** Audit entries, newest first, filtered and paged. */
export const handler = define.handlers({
  GET: apiHandler(E.listAudit, ({ kv, principal, query }) => queryAudit(kv, principal, query)),
});
