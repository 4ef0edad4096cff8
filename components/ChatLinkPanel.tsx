import { Head } from "../lib/fresh/runtime.ts";
import { CSRF_FIELD } from "../lib/auth/access.ts";
import { type ChatLinkView, LINK_TOKEN_FIELD } from "../lib/auth/chat_link.ts";

export type { ChatLinkView };
import type { Platform } from "../lib/types.ts";

const PLATFORM_NAMES: Record<Platform, string> = { discord: "Discord", telegram: "Telegram" };
const AGAIN: Record<Platform, string> = {
  discord: "Run /gh link in Discord again.",
  telegram: "Send /gh login to the bot again.",
};

const BUTTON =
  "mt-6 rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700";
const TEXT = "mt-2 text-slate-600 dark:text-slate-400";

function Hidden(props: { token: string; formToken: string; intent: string }) {
  return (
    <>
      <input type="hidden" name={LINK_TOKEN_FIELD} value={props.token} />
      <input type="hidden" name={CSRF_FIELD} value={props.formToken} />
      <input type="hidden" name="intent" value={props.intent} />
    </>
  );
}

/** One account of the pair: where, and its unique name. */
function AccountCard(props: { where: string; name: string; detail?: string }) {
  return (
    <div class="rounded-md border border-slate-200 p-4 dark:border-slate-700">
      <p class="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">
        {props.where}
      </p>
      <p class="mt-1 break-all font-semibold">{props.name}</p>
      {props.detail && (
        <p class="mt-1 break-all text-xs text-slate-600 dark:text-slate-400">{props.detail}</p>
      )}
    </div>
  );
}

function Body({ view }: { view: ChatLinkView }) {
  if (view.kind === "unusable") {
    return (
      <>
        <h1 class="text-xl font-semibold">Link not valid</h1>
        <p class={TEXT}>
          This link is unknown, was replaced by a newer one, was used or is older than 10 minutes.
          {" "}
          {AGAIN[view.platform]}
        </p>
      </>
    );
  }
  const { account } = view;
  const platform = PLATFORM_NAMES[account.platform];
  const chatCard = (
    <AccountCard
      where={`${platform} account`}
      name={account.username}
      detail={account.chatUserId}
    />
  );
  if (view.kind === "start") {
    return (
      <form method="post" action={`/${account.platform}/link`}>
        <h1 class="text-xl font-semibold">Link {platform} to GitHub</h1>
        <div class="mt-4 text-left">{chatCard}</div>
        <p class={TEXT}>
          This {platform}{" "}
          account asked to act on GitHub as the account you sign in with next. Continue only if it
          is yours. If someone sent you this link, close this page.
        </p>
        <Hidden token={view.token} formToken={view.formToken} intent="continue" />
        <button type="submit" class={BUTTON}>
          I am {account.username}: continue to GitHub
        </button>
      </form>
    );
  }
  if (view.kind === "to_github") {
    return (
      <>
        <Head>
          <meta http-equiv="refresh" content={`0;url=${view.authorizeUrl}`} />
        </Head>
        <h1 class="text-xl font-semibold">On to GitHub</h1>
        <p class={TEXT}>
          Sign in to GitHub with the account that {account.username} should act as.
        </p>
        <a class={`${BUTTON} inline-block`} href={view.authorizeUrl} rel="noreferrer">
          Continue to GitHub
        </a>
      </>
    );
  }
  const githubCard = <AccountCard where="GitHub account" name={view.login} />;
  if (view.kind === "linked") {
    return (
      <>
        <h1 class="text-xl font-semibold">Accounts linked</h1>
        <div class="mt-4 grid gap-3 text-left sm:grid-cols-2">{chatCard}{githubCard}</div>
        <p class={TEXT}>
          Your {platform} account now acts as the GitHub account{" "}
          <strong>{view.login}</strong>. You can close this page and go back to {platform}.
        </p>
      </>
    );
  }
  return (
    <form method="post" action={`/${account.platform}/link`}>
      <h1 class="text-xl font-semibold">Link these accounts?</h1>
      <div class="mt-4 grid gap-3 text-left sm:grid-cols-2">{chatCard}{githubCard}</div>
      <p class={TEXT}>
        The {platform} account {account.username} will comment, merge, close and react on GitHub as
        {" "}
        {view.login}. Link them only if both accounts are yours; otherwise close this page and
        nothing is linked.
      </p>
      <Hidden token={view.token} formToken={view.formToken} intent="confirm" />
      <button type="submit" class={BUTTON}>Link {account.username} to {view.login}</button>
    </form>
  );
}

/** A chat link page: the chat account to link, the pair to confirm, the result, or a dead link. */
export function ChatLinkPanel({ view }: { view: ChatLinkView }) {
  const platform = view.kind === "unusable" ? view.platform : view.account.platform;
  return (
    <main class="mx-4 mt-24 max-w-lg rounded-lg border border-slate-200 bg-white p-6 sm:mx-auto sm:p-8 dark:border-slate-800 dark:bg-slate-900 text-center shadow-sm">
      <Head>
        <title>{`Link ${PLATFORM_NAMES[platform]} to GitHub · Switchyard`}</title>
      </Head>
      <Body view={view} />
    </main>
  );
}
