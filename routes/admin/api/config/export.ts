import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { actorOf } from "@/lib/admin/guards.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { exportConfigAudited } from "@/lib/ops/config_export.ts";
import { define } from "@/lib/state.ts";

/** The configuration document (super admins only; every export is audited). */
export const handler = define.handlers({
  GET: apiHandler(E.exportConfig, ({ ctx, kv, principal, query }) => {
    if (!principal.superAdmin) throw new HttpError(403, "Only a super admin may export");
    return exportConfigAudited(kv, actorOf(principal), {
      secrets: query.secrets === "true",
      encryptionKey: ctx.state.config.tokenEncryptionKey,
    });
  }),
});
