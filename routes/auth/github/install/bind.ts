import { requireCsrfToken, requireSameOrigin } from "@/lib/auth/access.ts";
import { parseInstallationId, verifyInstaller } from "@/lib/auth/installer.ts";
import { principalOf } from "@/lib/auth/principal.ts";
import { bindForInstaller } from "@/lib/installations/binding.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { requireFeature, requireId } from "@/lib/http_guards.ts";
import { FORM_BODY_BYTES } from "@/lib/limits.ts";
import { readFormBody } from "@/lib/http_body.ts";
import { define } from "@/lib/state.ts";

/**
 * Binds an installation to the chosen group: same-origin form with the
 * session's CSRF token, the person's right over the installation checked
 * again on GitHub, the owner role checked again on the group(s); then back to
 * the console.
 */
export const handler = define.handlers({
  async POST(ctx) {
    const { kv, config } = ctx.state;
    requireFeature(config, "GitHub sign-in");
    requireFeature(config, "GitHub App");
    requireSameOrigin(ctx.req, config);
    const principal = principalOf(ctx);
    const form = await readFormBody(ctx.req, { maxBytes: FORM_BODY_BYTES });
    requireCsrfToken(principal, form);
    const installationId = parseInstallationId(form.get("installation_id"));
    const groupId = form.get("group");
    if (typeof groupId !== "string" || groupId === "") throw new HttpError(400, "Choose a group");
    requireId("group", groupId, "group");
    const installation = await verifyInstaller(ctx.state, principal, installationId);
    if (!installation) throw new HttpError(401, "Your GitHub sign-in has expired; sign in again");
    await bindForInstaller(kv, principal, installation, groupId);
    return ctx.redirect("/admin?install=ok", 303);
  },
});
