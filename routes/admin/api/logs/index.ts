import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { queryLogs } from "@/lib/admin/logs.ts";
import { define } from "@/lib/state.ts";

/** Send logs, newest first, filtered and paged. */
export const handler = define.handlers({
  GET: apiHandler(E.listLogs, ({ kv, principal, query }) => queryLogs(kv, principal, query)),
});
