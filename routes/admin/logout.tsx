import { clearedSessionCookie } from "../../lib/auth/session_cookie.ts";
import { signOut } from "../../lib/auth/sign_out.ts";
import { define } from "../../lib/state.ts";

/** Signs out: deletes the session, clears the cookie, and says so. */
export const handler = define.handlers({
  async GET(ctx) {
    await signOut(ctx.state.kv, ctx.req);
    const headers = {
      "set-cookie": clearedSessionCookie(ctx.state.config),
      "cache-control": "no-store",
    };
    return ctx.render(undefined, { headers });
  },
});

/** The page shown after signing out. */
export default define.page(function SignedOut() {
  return (
    <main class="mx-auto mt-24 max-w-md rounded-lg border border-slate-200 bg-white p-8 text-center shadow-sm">
      <h1 class="text-xl font-semibold">You are signed out</h1>
      <p class="mt-2 text-slate-600">Your console session has ended.</p>
      <a
        class="mt-6 inline-block text-sm font-medium text-indigo-600 hover:underline"
        href="/admin/login"
      >
        Sign in again
      </a>
    </main>
  );
});
