import { accessAlready, describeInvite } from "../../lib/admin/invites.ts";
import { actorOf } from "../../lib/admin/guards.ts";
import { CSRF_FIELD, requireCsrfToken } from "../../lib/auth/access.ts";
import { principalOf } from "../../lib/auth/principal.ts";
import { page } from "../../lib/fresh/mod.ts";
import { Head } from "../../lib/fresh/runtime.ts";
import { isId } from "../../lib/ids.ts";
import { FORM_BODY_BYTES } from "../../lib/limits.ts";
import { readFormBody } from "../../lib/http_body.ts";
import { define } from "../../lib/state.ts";
import { acceptInvite } from "../../lib/store/config/invites.ts";

type InvitePage =
  | { kind: "offer"; token: string; csrf: string; groupName: string; role: string; by: string }
  | { kind: "unusable"; message: string }
  | { kind: "member"; groupId: string; groupName: string; access: string };

const UNUSABLE = "This invite link is unknown, already used, revoked or expired.";
const MALFORMED = "This invite link is incomplete or malformed; copy the whole link again.";

/** The page saying why the link cannot be used, with its status. */
function unusable(message: string, status: number) {
  return page<InvitePage>({ kind: "unusable", message }, { status });
}

/** The page telling a person who can already reach the group so; the invite stays unused. */
function alreadyIn(groupId: string, groupName: string, access: string) {
  return page<InvitePage>({ kind: "member", groupId, groupName, access }, {
    headers: { "cache-control": "no-store" },
  });
}

/**
 * Accepting a group invite: GET shows the group and role with a button (a person who is not
 * signed in is sent through sign-in and back here by the console guard); the button POSTs
 * the form, which joins the group and redirects to the console. A person who is already a
 * member (or a super admin) is told so, and the invite stays unused for the one it was for.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    const token = ctx.url.searchParams.get("token");
    if (!isId("inviteToken", token)) return unusable(MALFORMED, 400);
    const found = await describeInvite(ctx.state.kv, token);
    if (!found) return unusable(UNUSABLE, 404);
    const access = accessAlready(principal, found.invite);
    if (access) return alreadyIn(found.invite.groupId, found.groupName, access);
    return page<InvitePage>(
      {
        kind: "offer",
        token,
        csrf: principal.csrfToken,
        groupName: found.groupName,
        role: found.invite.role,
        by: found.invite.createdBy.login,
      },
      { headers: { "cache-control": "no-store" } },
    );
  },
  async POST(ctx) {
    const principal = principalOf(ctx);
    const form = await readFormBody(ctx.req, { maxBytes: FORM_BODY_BYTES });
    requireCsrfToken(principal, form);
    const token = form.get("token");
    if (!isId("inviteToken", token)) return unusable(MALFORMED, 400);
    const found = await describeInvite(ctx.state.kv, token);
    const access = found && accessAlready(principal, found.invite);
    if (found && access) return alreadyIn(found.invite.groupId, found.groupName, access);
    const result = await acceptInvite(ctx.state.kv, token, actorOf(principal));
    if (!result.ok) {
      return unusable(
        result.reason === "group_missing"
          ? "The group of this invite no longer exists."
          : result.reason === "group_full"
          ? "The group has no room for another member; ask an owner to remove someone first."
          : UNUSABLE,
        result.reason === "group_full" ? 409 : 404,
      );
    }
    return ctx.redirect("/admin?invite=ok", 303);
  },
});

/** The invite offer, or why the link cannot be used. */
export default define.page<typeof handler>(function InvitePage({ data }) {
  return (
    <main class="mx-4 mt-24 max-w-md rounded-lg border border-slate-200 bg-white p-6 sm:mx-auto sm:p-8 dark:border-slate-800 dark:bg-slate-900 text-center shadow-sm">
      <Head>
        <title>
          {data.kind === "offer"
            ? `Join ${data.groupName} · Switchyard`
            : data.kind === "member"
            ? `${data.groupName}: invite not needed · Switchyard`
            : "Invite not valid · Switchyard"}
        </title>
      </Head>
      {data.kind === "member" && (
        <>
          <h1 class="text-xl font-semibold">
            {data.access === "super admin"
              ? `You can already open ${data.groupName}`
              : `You are already in ${data.groupName}`}
          </h1>
          <p class="mt-2 text-slate-600 dark:text-slate-400" data-testid="already-member">
            {data.access === "super admin"
              ? "As a super admin you can already open every group."
              : `You are a member of this group (${data.access}).`}{" "}
            The invite stays unused: pass the link on to the person it is meant for.
          </p>
          <a
            class="mt-6 inline-block text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-300"
            href={`/admin/groups/${encodeURIComponent(data.groupId)}`}
          >
            Open {data.groupName}
          </a>
        </>
      )}
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
        : data.kind === "offer" && (
          <>
            <h1 class="text-xl font-semibold">Join {data.groupName}</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">
              {data.by} invited you as <strong>{data.role}</strong>.
            </p>
            <form method="post" action="/admin/invite" class="mt-6">
              <input type="hidden" name="token" value={data.token} />
              <input type="hidden" name={CSRF_FIELD} value={data.csrf} />
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
