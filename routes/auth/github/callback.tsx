import { acceptsHtml } from "@/lib/auth/access.ts";
import { sessionCookie } from "@/lib/auth/session_cookie.ts";
import { completeSignIn, consumeSignInState } from "@/lib/auth/sign_in.ts";
import { requireFeature } from "@/lib/http_guards.ts";
import { type Context, HttpError, isHttpError, page } from "@/lib/fresh/mod.ts";
import { define, type State } from "@/lib/state.ts";

interface Linked {
  platform: "Discord" | "Telegram";
  login: string;
}

const STATE_FORMAT = /^[\w-]{16,128}$/;

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
    case "discord_linked":
      if (acceptsHtml(ctx.req)) return page<Linked>({ platform: "Discord", login: outcome.login });
      return Response.json({
        ok: true,
        discordUserId: outcome.discordUserId,
        login: outcome.login,
      });
    case "telegram_linked":
      if (acceptsHtml(ctx.req)) return page<Linked>({ platform: "Telegram", login: outcome.login });
      return Response.json({
        ok: true,
        telegramUserId: outcome.telegramUserId,
        login: outcome.login,
      });
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

/** The page a browser sees after linking a chat account. */
export default define.page<typeof handler>(function LinkedPage({ data }) {
  return (
    <main class="mx-4 mt-24 max-w-md rounded-lg border border-slate-200 bg-white p-6 sm:mx-auto sm:p-8 dark:border-slate-800 dark:bg-slate-900 text-center shadow-sm">
      <h1 class="text-xl font-semibold">Account linked</h1>
      <p class="mt-2 text-slate-600 dark:text-slate-400">
        Your {data.platform} account now acts as the GitHub account{" "}
        <strong>{data.login}</strong>. You can close this page and go back to {data.platform}.
      </p>
    </main>
  );
});
