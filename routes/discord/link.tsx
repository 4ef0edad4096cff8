import { pendingDiscordLink } from "../../lib/chatops/discord/link_page.ts";
import { page } from "../../lib/fresh/mod.ts";
import { Head } from "../../lib/fresh/runtime.ts";
import { requireFeature } from "../../lib/http_guards.ts";
import { define } from "../../lib/state.ts";

type LinkPage =
  | { kind: "confirm"; discordName: string; discordUserId: string; continueUrl: string }
  | { kind: "unusable" };

const NO_STORE = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

/**
 * The page `/gh link` sends a Discord user to: it names the Discord user being linked and
 * continues to GitHub only when the reader confirms that it is them.
 */
export const handler = define.handlers({
  async GET(ctx) {
    requireFeature(ctx.state.config, "GitHub sign-in");
    const pending = await pendingDiscordLink(ctx.state, ctx.url.searchParams.get("state"));
    if (!pending) return page<LinkPage>({ kind: "unusable" }, { status: 404, headers: NO_STORE });
    return page<LinkPage>({ kind: "confirm", ...pending }, { headers: NO_STORE });
  },
});

/** Who is being linked, and the way on to GitHub. */
export default define.page<typeof handler>(function DiscordLinkPage({ data }) {
  return (
    <main class="mx-4 mt-24 max-w-md rounded-lg border border-slate-200 bg-white p-6 sm:mx-auto sm:p-8 dark:border-slate-800 dark:bg-slate-900 text-center shadow-sm">
      <Head>
        <title>Link Discord to GitHub · Switchyard</title>
      </Head>
      {data.kind === "unusable"
        ? (
          <>
            <h1 class="text-xl font-semibold">Link not valid</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">
              This link is unknown, already used or older than 10 minutes. Run /gh link in Discord
              again.
            </p>
          </>
        )
        : (
          <>
            <h1 class="text-xl font-semibold">Link Discord to GitHub</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">
              The Discord user <strong>{data.discordName}</strong>{" "}
              <span class="text-xs">({data.discordUserId})</span>{" "}
              will act on GitHub as the account you sign in with next.
            </p>
            <p class="mt-2 text-slate-600 dark:text-slate-400">
              Continue only if that Discord user is you. If someone sent you this link, close this
              page.
            </p>
            <a
              class="mt-6 inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
              href={data.continueUrl}
              rel="noreferrer"
            >
              I am {data.discordName}: continue to GitHub
            </a>
          </>
        )}
    </main>
  );
});
