import { describeInvite } from "../../lib/admin/invites.ts";
import { actorOf } from "../../lib/admin/guards.ts";
import { requireCsrfToken, requirePrincipal } from "../../lib/auth/access.ts";
import { Head } from "../../lib/fresh/runtime.ts";
import { isId } from "../../lib/ids.ts";
import { FORM_BODY_BYTES, readFormBody } from "../../lib/request_body.ts";
import { define } from "../../lib/state.ts";
import { acceptInvite } from "../../lib/store/invites.ts";

type InvitePage =
  | { kind: "offer"; token: string; csrf: string; groupName: string; role: string; by: string }
  | { kind: "unusable"; message: string };

const UNUSABLE = "This invite link is unknown, already used, revoked or expired.";
const MALFORMED = "This invite link is incomplete or malformed; copy the whole link again.";

/**
 * Accepting a group invite: GET shows the group and role with a button (a person who is not
 * signed in is sent through sign-in and back here by the console guard); the button POSTs
 * the form, which joins the group and redirects to the console.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = await requirePrincipal(ctx);
    const token = ctx.url.searchParams.get("token");
    if (!isId("inviteToken", token)) {
      return ctx.render({ kind: "unusable", message: MALFORMED } satisfies InvitePage, {
        status: 400,
      });
    }
    const found = await describeInvite(ctx.state.kv, token);
    if (!found) return ctx.render({ kind: "unusable", message: UNUSABLE }, { status: 404 });
    return ctx.render(
      {
        kind: "offer",
        token,
        csrf: principal.csrfToken,
        groupName: found.groupName,
        role: found.invite.role,
        by: found.invite.createdBy.login,
      } satisfies InvitePage,
      { headers: { "cache-control": "no-store" } },
    );
  },
  async POST(ctx) {
    const principal = await requirePrincipal(ctx);
    const form = await readFormBody(ctx.req, { maxBytes: FORM_BODY_BYTES });
    requireCsrfToken(principal, form.get("csrf"));
    const token = form.get("token");
    if (!isId("inviteToken", token)) {
      return ctx.render({ kind: "unusable", message: MALFORMED } satisfies InvitePage, {
        status: 400,
      });
    }
    const result = await acceptInvite(ctx.state.kv, token, actorOf(principal));
    if (!result.ok) {
      const message = result.reason === "group_missing"
        ? "The group of this invite no longer exists."
        : result.reason === "group_full"
        ? "The group has no room for another member; ask an owner to remove someone first."
        : UNUSABLE;
      const status = result.reason === "group_full" ? 409 : 404;
      return ctx.render({ kind: "unusable", message } satisfies InvitePage, { status });
    }
    return new Response(null, { status: 303, headers: { location: "/admin?invite=ok" } });
  },
});

/** The invite offer, or why the link cannot be used. */
export default define.page<InvitePage>(function InvitePage({ data }) {
  return (
    <main class="mx-4 mt-24 max-w-md rounded-lg border border-slate-200 bg-white p-6 sm:mx-auto sm:p-8 dark:border-slate-800 dark:bg-slate-900 text-center shadow-sm">
      <Head>
        <title>
          {data.kind === "offer"
            ? `Join ${data.groupName} · Switchyard`
            : "Invite not valid · Switchyard"}
        </title>
      </Head>
      {data.kind === "unusable"
        ? (
          <>
            <h1 class="text-xl font-semibold">Invite not valid</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">{data.message}</p>
            <a
              class="mt-6 inline-block text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-300"
              href="/admin"
            >
              Back to the console
            </a>
          </>
        )
        : (
          <>
            <h1 class="text-xl font-semibold">Join {data.groupName}</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">
              {data.by} invited you as <strong>{data.role}</strong>.
            </p>
            <form method="post" action="/admin/invite" class="mt-6">
              <input type="hidden" name="token" value={data.token} />
              <input type="hidden" name="csrf" value={data.csrf} />
              <button
                type="submit"
                class="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
              >
                Join the group
              </button>
            </form>
          </>
        )}
    </main>
  );
});
