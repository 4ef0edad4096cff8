import { CSRF_FIELD, requireCsrfToken, requireSameOrigin } from "../../lib/auth/access.ts";
import { clearedSessionCookie } from "../../lib/auth/session_cookie.ts";
import { mayEndSessionOnGet, signOut } from "../../lib/auth/sign_out.ts";
import { page } from "../../lib/fresh/mod.ts";
import { FORM_BODY_BYTES } from "../../lib/limits.ts";
import { readFormBody } from "../../lib/http_body.ts";
import { Head } from "../../lib/fresh/runtime.ts";
import { define } from "../../lib/state.ts";

/** The confirmation form (with the session's CSRF token), or the signed-out notice. */
interface SignOutPage {
  csrfToken?: string;
}

const NO_STORE = { "cache-control": "no-store" };

/**
 * Sign-out: a GET from this site (or typed in) ends the session and comes back here to say so;
 * a GET another site started only shows the confirmation form, a same-origin POST carrying the
 * session's CSRF token (so no other site can end a session). Without a session both say that
 * nobody is signed in. The console middleware has put the session's person, if any, on
 * `ctx.state.principal`.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = ctx.state.principal;
    if (!principal?.sessionId) return page<SignOutPage>({}, { headers: NO_STORE });
    if (!mayEndSessionOnGet(ctx.req)) {
      return page<SignOutPage>({ csrfToken: principal.csrfToken }, { headers: NO_STORE });
    }
    await signOut(ctx.state.kv, ctx.req);
    const headers = {
      ...NO_STORE,
      location: "/admin/logout",
      "set-cookie": clearedSessionCookie(ctx.state.config),
    };
    return new Response(null, { status: 303, headers });
  },
  async POST(ctx) {
    const { kv, config } = ctx.state;
    requireSameOrigin(ctx.req, config);
    const principal = ctx.state.principal;
    if (principal?.sessionId) {
      const form = await readFormBody(ctx.req, { maxBytes: FORM_BODY_BYTES });
      requireCsrfToken(principal, form);
      await signOut(kv, ctx.req);
    }
    const headers = { ...NO_STORE, "set-cookie": clearedSessionCookie(config) };
    return page<SignOutPage>({}, { headers });
  },
});

/** Asks to confirm the sign-out, or says the session has ended. */
export default define.page<typeof handler>(function SignOut({ data }) {
  return (
    <main class="mx-4 mt-24 max-w-md rounded-lg border border-slate-200 bg-white p-6 sm:mx-auto sm:p-8 dark:border-slate-800 dark:bg-slate-900 text-center shadow-sm">
      <Head>
        <title>{data.csrfToken ? "Sign out? · Switchyard" : "Signed out · Switchyard"}</title>
      </Head>
      {data.csrfToken
        ? (
          <form method="post" action="/admin/logout">
            <h1 class="text-xl font-semibold">Sign out?</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">
              This ends your console session in this browser.
            </p>
            <input type="hidden" name={CSRF_FIELD} value={data.csrfToken} />
            <button
              type="submit"
              class="mt-6 rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
            >
              Sign out
            </button>
          </form>
        )
        : (
          <>
            <h1 class="text-xl font-semibold">You are signed out</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">Your console session has ended.</p>
            <a
              class="mt-6 inline-block text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-300"
              href="/admin/login"
            >
              Sign in again
            </a>
          </>
        )}
    </main>
  );
});
