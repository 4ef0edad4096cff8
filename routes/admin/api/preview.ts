import { ADMIN_ENDPOINTS as E } from "../../../lib/admin/endpoints.ts";
import { apiHandler } from "../../../lib/admin/endpoint.ts";
import { previewMessage } from "../../../lib/admin/preview.ts";
import { define } from "../../../lib/state.ts";

/** A message preview. */
export const handler = define.handlers({
  POST: apiHandler(E.preview, ({ body }) => Promise.resolve(previewMessage(body))),
});
