import { openApiDocument } from "../lib/admin/openapi.ts";
import { define } from "../lib/state.ts";

/** The OpenAPI document of the admin and action APIs. */
export const handler = define.handlers({
  GET: (ctx) => Response.json(openApiDocument(ctx.state.config.baseUrl)),
});
