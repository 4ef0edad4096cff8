import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { testMatch } from "@/lib/admin/test_match.ts";
import { define } from "@/lib/state.ts";

/** A stateless filter trial. */
export const handler = define.handlers({
  POST: apiHandler(E.testMatch, ({ body }) => Promise.resolve(testMatch(body))),
});
