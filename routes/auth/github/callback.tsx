import { linkSignedIn, pairToConfirm } from "@/lib/auth/chat_link_confirm.ts";
import { chatLinkAnnouncer } from "@/lib/chatops/link_confirmation.ts";
import { sessionCookie } from "@/lib/auth/session_cookie.ts";
import { completeSignIn, consumeSignInState } from "@/lib/auth/sign_in.ts";
import { requireFeature } from "@/lib/http_guards.ts";
import { acceptsHtml, type Context, HttpError, isHttpError, page } from "@/lib/fresh/mod.ts";
import { define, type State } from "@/lib/state.ts";
import { ChatLinkPanel, type ChatLinkView } from "@/components/ChatLinkPanel.tsx";

/** A plausible state (a signed one is checked later): url-safe characters and dots, bounded. */
const STATE_FORMAT = /^[\w.-]{16,4100}$/;

const NO_STORE = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

/** Whether a browser asks (a page, or any request a browser marks with `Sec-Fetch-Site`). */
function fromBrowser(req: Request): boolean {
  return acceptsHtml(req) || req.headers.has("sec-fetch-site");
}

/**
 * GitHub's install redirect when the app asks for authorization during
 * installation: it carries a code but not our state, so the code is not used;
 * the install page starts a sign-in of its own. The install page's address,
 * or null for any other callback.
 */
function statelessInstallPath(query: URLSearchParams): string | null {
  const installationId = query.get("installation_id");
  if (query.has("state") || !installationId || !/^\d{1,18}$/.test(installationId)) return null;
  const next = new URLSearchParams({ installation_id: installationId });
  const setupAction = query.get("setup_action");
  if (setupAction) next.set("setup_action", setupAction);
  return `/auth/github/install?${next}`;
}

async function answer(ctx: Context<State>) {
  const { config } = ctx.state;
  requireFeature(config, "GitHub sign-in");
  const query = ctx.url.searchParams;
  const installPath = statelessInstallPath(query);
  if (installPath) return ctx.redirect(installPath);
  const state = query.get("state");
  if (!state || !STATE_FORMAT.test(state)) throw new HttpError(400, "Missing or malformed state");
  const flow = await consumeSignInState(ctx.state, ctx.req, state);
  const denied = query.get("error");
  if (denied) {
    const reason = query.get("error_description") ?? denied;
    throw new HttpError(400, `GitHub sign-in was not completed: ${reason}`);
  }
  const code = query.get("code");
  if (!code) throw new HttpError(400, "Missing code");

  const outcome = await completeSignIn(ctx.state, code, flow);
  switch (outcome.kind) {
    case "session": {
      const res = ctx.redirect(outcome.redirectTo);
      res.headers.set("set-cookie", sessionCookie(config, outcome.sessionId));
      return res;
    }
    case "forbidden":
      return ctx.redirect("/admin?error=forbidden");
    case "json":
      return Response.json({
        userId: outcome.userId,
        login: outcome.login,
        redirectTo: outcome.redirectTo,
      });
    case "chat_link": {
      if (fromBrowser(ctx.req)) {
        const pair = await pairToConfirm(ctx.state, ctx.req, outcome.pending);
        return page<ChatLinkView>({ kind: "pair", ...pair }, { headers: NO_STORE });
      }
      const linked = await linkSignedIn(
        ctx.state,
        outcome.pending,
        chatLinkAnnouncer(ctx.state.adapters),
      );
      const idField = linked.account.platform === "discord" ? "discordUserId" : "telegramUserId";
      return Response.json({ ok: true, [idField]: linked.account.chatUserId, login: linked.login });
    }
  }
}

/**
 * GitHub's OAuth callback. Errors answer the error page in a browser and
 * JSON `{ error }` otherwise (the JSON flow, chat clients, scripts).
 */
export const handler = define.handlers({
  async GET(ctx) {
    try {
      return await answer(ctx);
    } catch (error) {
      if (!isHttpError(error) || acceptsHtml(ctx.req)) throw error;
      return Response.json({ error: error.message }, {
        status: error.status,
        headers: error.headers,
      });
    }
  },
});

/** The page a browser sees for a chat link: the two accounts, to link them. */
export default define.page<typeof handler>(function ChatLinkPairPage({ data }) {
  return <ChatLinkPanel view={data} />;
});
