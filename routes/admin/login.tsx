import type { ComponentChildren } from "preact";
import { CARD, MUTED } from "../../components/layout/ui.ts";
import { safeRedirectPath } from "../../lib/auth/redirect.ts";
import { redirectToGitHub } from "../../lib/auth/sign_in.ts";
import { FEATURES } from "../../lib/config.ts";
import { Head } from "../../lib/fresh/runtime.ts";
import { acceptsHtml, page } from "../../lib/fresh/mod.ts";
import { debugStartCommand, startedThroughNpx } from "../../lib/start_command.ts";
import { define } from "../../lib/state.ts";

const NOT_CONFIGURED = "GitHub sign-in is not configured";

/**
 * Starts the console sign-in; afterwards the browser returns to `redirect` (default `/admin`).
 * While GitHub sign-in is not configured, a browser gets a page (503) saying which settings
 * to set, and other clients the usual 503 JSON.
 */
export const handler = define.handlers({
  GET(ctx) {
    const { kv, config } = ctx.state;
    if (!FEATURES["GitHub sign-in"](config)) {
      if (!acceptsHtml(ctx.req)) return Response.json({ error: NOT_CONFIGURED }, { status: 503 });
      return page({
        baseUrl: config.baseUrl,
        localConsole: `http://localhost:${config.port}/admin`,
        startCommand: debugStartCommand({
          port: config.port,
          npx: startedThroughNpx(Deno.env.toObject(), Deno.execPath()),
          denoVersion: Deno.version.deno,
        }),
      }, {
        status: 503,
        headers: { "cache-control": "no-store" },
      });
    }
    const redirectTo = safeRedirectPath(ctx.url.searchParams.get("redirect") ?? "/admin");
    return redirectToGitHub(ctx.req, kv, config, { kind: "browser", redirectTo });
  },
});

function Setting(props: { name: string; children: ComponentChildren }) {
  return (
    <li>
      <code class="font-semibold">{props.name}</code>
      <span class={MUTED}>: {props.children}</span>
    </li>
  );
}

/** What to set for GitHub sign-in, and the local alternative. No link: it would come back here. */
export default define.page<typeof handler>(function SignInSetup({ data }) {
  const callback = `${data.baseUrl}/auth/github/callback`;
  return (
    <main class="mx-auto my-12 max-w-2xl px-4">
      <Head>
        <title>Sign-in is not configured · Switchyard</title>
      </Head>
      <div class={CARD}>
        <p class="flex items-center gap-2 font-semibold">
          <img src="/favicon.svg" alt="" width={24} height={24} />
          Switchyard
        </p>
        <h1 class="mt-4 text-xl font-semibold">{NOT_CONFIGURED}</h1>
        <p class={`mt-2 ${MUTED}`}>
          The console signs people in with their GitHub account. Set these settings (environment
          variables) and restart Switchyard:
        </p>
        <ul class="mt-4 flex list-disc flex-col gap-2 pl-5 text-sm">
          <Setting name="GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET">
            from a GitHub OAuth app (GitHub → Settings → Developer settings → OAuth Apps) whose
            authorization callback URL is <code class="break-all">{callback}</code>
          </Setting>
          <Setting name="BASE_URL">
            the address people open Switchyard at; now <code class="break-all">{data.baseUrl}</code>
          </Setting>
          <Setting name="ADMIN_USER_IDS">
            the super admins, comma-separated: numeric GitHub user ids, or logins written{" "}
            <code>login:&lt;name&gt;</code>, for example <code>login:octocat</code>
          </Setting>
        </ul>
        <h2 class="mt-6 font-semibold">Trying it on your own machine?</h2>
        <p class={`mt-1 text-sm ${MUTED}`}>
          Start it with <code>DEBUG_MODE=true</code>{" "}
          instead: every request to localhost is a super admin, without signing in. It works on a
          local machine only (loopback addresses), never in a deployment:
        </p>
        <pre class="mt-2 overflow-x-auto rounded-md bg-slate-100 p-3 text-sm dark:bg-slate-800"><code data-testid="start-command">{data.startCommand}</code></pre>
        <p class={`mt-2 text-sm ${MUTED}`}>
          then open <code>{data.localConsole}</code>.
        </p>
      </div>
    </main>
  );
});
