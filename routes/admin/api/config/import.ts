import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { actorOf } from "@/lib/admin/guards.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { importConfig } from "@/lib/ops/config_import.ts";
import { define } from "@/lib/state.ts";

/** Imports a configuration document (super admins only). */
export const handler = define.handlers({
  POST: apiHandler(E.importConfig, async ({ ctx, kv, principal, query, body }) => {
    if (!principal.superAdmin) throw new HttpError(403, "Only a super admin may import");
    const outcome = await importConfig(kv, body, {
      actor: actorOf(principal),
      dryRun: query.dryRun === "true",
      encryptionKey: ctx.state.config.tokenEncryptionKey,
    });
    if (!outcome.ok) throw new HttpError(outcome.status, outcome.error);
    return outcome;
  }),
});
