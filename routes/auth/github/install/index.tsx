import { CSRF_FIELD } from "@/lib/auth/access.ts";
import { parseInstallationId, verifyInstaller } from "@/lib/auth/installer.ts";
import { redirectToGitHub } from "@/lib/auth/sign_in.ts";
import { requireFeature } from "@/lib/http_guards.ts";
import { page } from "@/lib/fresh/mod.ts";
import { type InstallChoices, installChoices } from "@/lib/installations/binding.ts";
import { define } from "@/lib/state.ts";

interface InstallPage extends InstallChoices {
  requested: false;
  installationId: number;
  account: string;
  csrfToken: string;
}

const SETUP_ACTIONS = new Set(["install", "update"]);

/**
 * GitHub's setup address after the app is installed: signs the person in
 * when needed (the folder's middleware put the session's person, if any, on
 * `ctx.state.principal`) and comes back, checks on GitHub that they administer the
 * installation's account, and shows where to bind it.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, config } = ctx.state;
    requireFeature(config, "GitHub sign-in");
    requireFeature(config, "GitHub App");
    const setupAction = ctx.url.searchParams.get("setup_action") ?? "";
    if (setupAction === "request" && !ctx.url.searchParams.has("installation_id")) {
      // An organization member asked its owners to install the app: nothing to bind yet.
      return page({ requested: true as const }, { headers: { "cache-control": "no-store" } });
    }
    const installationId = parseInstallationId(ctx.url.searchParams.get("installation_id"));
    const signIn = () =>
      redirectToGitHub(ctx.req, kv, config, {
        kind: "install",
        installationId,
        ...(SETUP_ACTIONS.has(setupAction) ? { setupAction } : {}),
      });
    const principal = ctx.state.principal;
    if (!principal) return signIn();
    const installation = await verifyInstaller(ctx.state, principal, installationId);
    if (!installation) return signIn();
    const data: InstallPage = {
      requested: false,
      installationId,
      account: installation.account.login,
      csrfToken: principal.csrfToken,
      ...await installChoices(kv, principal, installationId),
    };
    return page(data, { headers: { "cache-control": "no-store" } });
  },
});

function Notice({ children }: { children: string }) {
  return (
    <p
      role="alert"
      class="mt-6 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      {children}
    </p>
  );
}

/** What an organization member sees after asking its owners to install the app. */
function InstallRequested() {
  return (
    <main class="mx-4 mt-16 max-w-lg rounded-lg border border-slate-200 bg-white p-6 sm:mx-auto sm:p-8 dark:border-slate-800 dark:bg-slate-900 shadow-sm">
      <h1 class="text-xl font-semibold">Installation requested</h1>
      <p class="mt-2 text-slate-600 dark:text-slate-400">
        GitHub asked the organization's owners to approve the app. Once one of them installs it,
        GitHub brings them here to bind the installation to a group; nothing is bound until then.
      </p>
    </main>
  );
}

/**
 * The binding choice: the group `inst-{id}` (new, or existing and the
 * person's), or one of the person's own groups.
 */
export default define.page<typeof handler>(function InstallChoicePage({ data }) {
  if (data.requested) return <InstallRequested />;
  const offerNewGroup = !data.newGroup.exists || data.newGroup.owned;
  const bound = new Set(data.boundGroupIds);
  const checkedId = offerNewGroup ? data.newGroup.id : data.ownedGroups[0]?.id;
  return (
    <main class="mx-4 mt-16 max-w-lg rounded-lg border border-slate-200 bg-white p-6 sm:mx-auto sm:p-8 dark:border-slate-800 dark:bg-slate-900 shadow-sm">
      <h1 class="text-xl font-semibold">Bind the GitHub App installation</h1>
      <p class="mt-2 text-slate-600 dark:text-slate-400">
        Installation {data.installationId} on{" "}
        <strong>{data.account}</strong>: its events go to the group you choose.
      </p>
      {!data.canMove && (
        <Notice>
          This installation is already bound to a group you do not own. Only a super admin can bind
          it elsewhere.
        </Notice>
      )}
      {data.canMove && !checkedId && (
        <Notice>
          There is no group you own to bind it to: the group inst-… exists and is not yours. Ask a
          super admin.
        </Notice>
      )}
      {data.canMove && checkedId && (
        <form method="post" action="/auth/github/install/bind" class="mt-6 space-y-3">
          <input type="hidden" name="installation_id" value={String(data.installationId)} />
          <input type="hidden" name={CSRF_FIELD} value={data.csrfToken} />
          {offerNewGroup && (
            <label class="flex items-start gap-2">
              <input
                type="radio"
                name="group"
                value={data.newGroup.id}
                checked={checkedId === data.newGroup.id}
                class="mt-1"
              />
              <span>
                {data.newGroup.exists ? "The existing group " : "A new group "}
                <code>{data.newGroup.id}</code>
              </span>
            </label>
          )}
          {data.ownedGroups.map((group) => (
            <label key={group.id} class="flex items-start gap-2">
              <input
                type="radio"
                name="group"
                value={group.id}
                checked={checkedId === group.id}
                class="mt-1"
              />
              <span>
                {group.name} <code class="text-slate-500 dark:text-slate-400">{group.id}</code>
                {bound.has(group.id) && (
                  <span class="block text-sm text-slate-500 dark:text-slate-400">
                    bound to this installation now
                  </span>
                )}
                {group.installationId !== undefined &&
                  group.installationId !== data.installationId && (
                  <span class="block text-sm text-amber-700 dark:text-amber-300">
                    now bound to installation {group.installationId}; binding moves it
                  </span>
                )}
              </span>
            </label>
          ))}
          {data.boundGroupIds.length > 0 && (
            <p class="text-sm text-slate-600 dark:text-slate-400">
              Choosing another group moves the installation away from{" "}
              {data.boundGroupIds.join(", ")}.
            </p>
          )}
          <button
            type="submit"
            class="mt-4 rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
          >
            Bind installation
          </button>
        </form>
      )}
    </main>
  );
});
