import { safeRedirectPath } from "@/lib/auth/redirect.ts";
import { redirectToGitHub } from "@/lib/auth/sign_in.ts";
import { requireFeature } from "@/lib/http_guards.ts";
import { asksForJsonOnly } from "@/lib/fresh/mod.ts";
import { define } from "@/lib/state.ts";

/** Whether the caller asked for the JSON flow: `?flow=json`, or an Accept that prefers JSON. */
function wantsJson(req: Request, url: URL): boolean {
  return url.searchParams.get("flow") === "json" || asksForJsonOnly(req);
}

/** Starts a GitHub sign-in; the callback answers as the flow started here asks. */
export const handler = define.handlers({
  GET(ctx) {
    const { kv, config } = ctx.state;
    requireFeature(config, "GitHub sign-in");
    const redirectTo = safeRedirectPath(ctx.url.searchParams.get("redirect"));
    const kind = wantsJson(ctx.req, ctx.url) ? "json" : "browser";
    return redirectToGitHub(ctx.req, kv, config, { kind, redirectTo });
  },
});
