import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { exportConfig } from "@/lib/ops/config_export.ts";
import { define } from "@/lib/state.ts";

/** The configuration document (super admins only). */
export const handler = define.handlers({
  GET: apiHandler(E.exportConfig, ({ ctx, kv, principal, query }) => {
    if (!principal.superAdmin) throw new HttpError(403, "Only a super admin may export");
    return exportConfig(kv, {
      secrets: query.secrets === "true",
      encryptionKey: ctx.state.config.tokenEncryptionKey,
    });
  }),
});
