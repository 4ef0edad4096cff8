import { submitReminderForm } from "../../lib/admin/reminder_forms.ts";
import { requireCsrfToken } from "../../lib/auth/access.ts";
import { principalOf } from "../../lib/auth/principal.ts";
import { readFormBody } from "../../lib/http_body.ts";
import { FORM_BODY_BYTES } from "../../lib/limits.ts";
import { define } from "../../lib/state.ts";

/** The reminder forms of the account page and group pages; answered by a redirect back. */
export const handler = define.handlers({
  async POST(ctx) {
    const principal = principalOf(ctx);
    const form = await readFormBody(ctx.req, { maxBytes: FORM_BODY_BYTES });
    requireCsrfToken(principal, form);
    return ctx.redirect(await submitReminderForm(ctx.state.kv, principal, form), 303);
  },
});
