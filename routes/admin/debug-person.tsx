import {
  CARD,
  INPUT,
  MUTED,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
} from "../../components/layout/ui.ts";
import { CSRF_FIELD, requireCsrfToken } from "../../lib/auth/access.ts";
import { debugPersonCookie, isDebugLogin } from "../../lib/auth/debug_person.ts";
import { principalOf } from "../../lib/auth/principal.ts";
import { HttpError, page } from "../../lib/fresh/mod.ts";
import { Head } from "../../lib/fresh/runtime.ts";
import { readFormBody } from "../../lib/http_body.ts";
import { FORM_BODY_BYTES } from "../../lib/limits.ts";
import { define } from "../../lib/state.ts";

interface DebugPersonPage {
  login: string;
  superAdmin: boolean;
  csrf: string;
  error?: string;
}

const NO_STORE = { "cache-control": "no-store" };

/**
 * DEBUG_MODE only (404 otherwise): choose the person this browser acts as, to try invites and
 * roles as a second person on one machine; an empty login returns to the built-in super admin.
 * The form posts to itself with the page's token; the answer sets the cookie and opens the console.
 */
export const handler = define.handlers({
  GET(ctx) {
    if (!ctx.state.config.debugMode) throw new HttpError(404, "Not found");
    const principal = principalOf(ctx);
    return page<DebugPersonPage>({
      login: principal.login,
      superAdmin: principal.superAdmin,
      csrf: principal.csrfToken,
    }, { headers: NO_STORE });
  },
  async POST(ctx) {
    if (!ctx.state.config.debugMode) throw new HttpError(404, "Not found");
    const principal = principalOf(ctx);
    const form = await readFormBody(ctx.req, { maxBytes: FORM_BODY_BYTES });
    requireCsrfToken(principal, form);
    const login = String(form.get("login") ?? "").trim();
    if (login !== "" && !isDebugLogin(login)) {
      return page<DebugPersonPage>({
        login: principal.login,
        superAdmin: principal.superAdmin,
        csrf: principal.csrfToken,
        error: "A login has letters, digits and inner hyphens, at most 39 characters.",
      }, { status: 400, headers: NO_STORE });
    }
    return new Response(null, {
      status: 303,
      headers: {
        ...NO_STORE,
        location: "/admin",
        "set-cookie": debugPersonCookie(login === "" ? null : login),
      },
    });
  },
});

/** Who this browser is, and the form that changes it. */
export default define.page<typeof handler>(function DebugPerson({ data }) {
  return (
    <main class="mx-auto my-12 max-w-lg px-4">
      <Head>
        <title>Act as another person · Switchyard</title>
      </Head>
      <div class={CARD}>
        <h1 class="text-xl font-semibold">Act as another person</h1>
        <p class={`mt-2 text-sm ${MUTED}`}>
          DEBUG_MODE only. This browser is now <strong>{data.login}</strong>
          {data.superAdmin ? " (super admin)" : ""}. To try invites and roles as a second person,
          open this page in a private window (or another browser), give a login there, then open an
          invite link in that window.
        </p>
        <form method="post" action="/admin/debug-person" class="mt-4 flex flex-col gap-3">
          <input type="hidden" name={CSRF_FIELD} value={data.csrf} />
          <label class="flex flex-col gap-1 text-sm font-medium">
            Login
            <input
              name="login"
              maxLength={39}
              placeholder="alice"
              aria-invalid={data.error ? true : undefined}
              aria-describedby={data.error ? "login-error" : undefined}
              class={`${INPUT} font-normal`}
            />
          </label>
          {data.error && (
            <p id="login-error" role="alert" class="text-sm text-red-800 dark:text-red-200">
              {data.error}
            </p>
          )}
          <div>
            <button type="submit" class={PRIMARY_BUTTON}>Act as this person</button>
          </div>
        </form>
        {!data.superAdmin && (
          <form method="post" action="/admin/debug-person" class="mt-3">
            <input type="hidden" name={CSRF_FIELD} value={data.csrf} />
            <input type="hidden" name="login" value="" />
            <button type="submit" class={SECONDARY_BUTTON}>Back to the debug super admin</button>
          </form>
        )}
      </div>
    </main>
  );
});
