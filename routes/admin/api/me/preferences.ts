import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { readPreferences, writePreferences } from "@/lib/admin/preferences.ts";
import { define } from "@/lib/state.ts";

/** The signed-in person's own settings. */
export const handler = define.handlers({
  GET: apiHandler(E.getPreferences, ({ kv, principal }) => readPreferences(kv, principal)),
  PUT: apiHandler(
    E.setPreferences,
    ({ kv, principal, body }) => writePreferences(kv, principal, body),
  ),
});
