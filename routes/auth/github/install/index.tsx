import { loadPrincipal } from "../../../../lib/auth/principal.ts";
import {
  type InstallChoices,
  installChoices,
  parseInstallationId,
  verifyInstallation,
} from "../../../../lib/auth/install_binding.ts";
import { redirectToGitHub } from "../../../../lib/auth/sign_in.ts";
import { requireFeature } from "../../../../lib/config.ts";
import { define } from "../../../../lib/state.ts";

interface InstallPage extends InstallChoices {
  installationId: number;
  account: string;
  csrfToken: string;
}

const SETUP_ACTIONS = new Set(["install", "update"]);

/**
 * GitHub's setup address after the app is installed: signs the person in
 * when needed (and comes back), checks they can see the installation, and
 * shows where to bind it.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, config } = ctx.state;
    requireFeature(config, "GitHub sign-in");
    requireFeature(config, "GitHub App");
    const installationId = parseInstallationId(ctx.url.searchParams.get("installation_id"));
    const setupAction = ctx.url.searchParams.get("setup_action") ?? "";
    const signIn = () =>
      redirectToGitHub(ctx.req, kv, config, {
        kind: "install",
        installationId,
        ...(SETUP_ACTIONS.has(setupAction) ? { setupAction } : {}),
      });
    const principal = await loadPrincipal(ctx);
    if (!principal) return signIn();
    const installation = await verifyInstallation(ctx.state, principal, installationId);
    if (!installation) return signIn();
    const page: InstallPage = {
      installationId,
      account: installation.account.login,
      csrfToken: principal.csrfToken,
      ...await installChoices(kv, principal, installationId),
    };
    return ctx.render(page, { headers: { "cache-control": "no-store" } });
  },
});

/** The binding choice: a new group `inst-{id}`, or one of the person's own groups. */
export default define.page<InstallPage>(function InstallChoicePage({ data }) {
  return (
    <main class="mx-auto mt-16 max-w-lg rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
      <h1 class="text-xl font-semibold">Bind the GitHub App installation</h1>
      <p class="mt-2 text-slate-600">
        Installation {data.installationId} on{" "}
        <strong>{data.account}</strong>: its events go to the group you choose.
      </p>
      <form method="post" action="/auth/github/install/bind" class="mt-6 space-y-3">
        <input type="hidden" name="installation_id" value={String(data.installationId)} />
        <input type="hidden" name="csrf_token" value={data.csrfToken} />
        <label class="flex items-start gap-2">
          <input type="radio" name="group" value={data.newGroup.id} checked class="mt-1" />
          <span>
            {data.newGroup.exists ? "The existing group " : "A new group "}
            <code>{data.newGroup.id}</code>
          </span>
        </label>
        {data.ownedGroups.map((group) => (
          <label key={group.id} class="flex items-start gap-2">
            <input type="radio" name="group" value={group.id} class="mt-1" />
            <span>
              {group.name} <code class="text-slate-500">{group.id}</code>
              {group.installationId !== undefined && group.installationId !== data.installationId &&
                (
                  <span class="block text-sm text-amber-700">
                    now bound to installation {group.installationId}; binding moves it
                  </span>
                )}
            </span>
          </label>
        ))}
        <button
          type="submit"
          class="mt-4 rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
        >
          Bind installation
        </button>
      </form>
    </main>
  );
});
