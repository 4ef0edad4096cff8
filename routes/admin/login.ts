import { safeRedirectPath } from "../../lib/auth/redirect.ts";
import { redirectToGitHub } from "../../lib/auth/sign_in.ts";
import { requireFeature } from "../../lib/http_guards.ts";
import { define } from "../../lib/state.ts";

/** Starts the console sign-in; afterwards the browser returns to `redirect` (default `/admin`). */
export const handler = define.handlers({
  GET(ctx) {
    const { kv, config } = ctx.state;
    requireFeature(config, "GitHub sign-in");
    const redirectTo = safeRedirectPath(ctx.url.searchParams.get("redirect") ?? "/admin");
    return redirectToGitHub(ctx.req, kv, config, { kind: "browser", redirectTo });
  },
});
