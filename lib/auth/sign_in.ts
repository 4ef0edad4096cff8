/**
 * Finishing a GitHub sign-in (`GET /auth/github/callback`): the code is
 * exchanged, the user looked up, the token stored, and the flow the state
 * was bound to decides the outcome:
 *
 * - browser: a session, when the person has console access or is on their way
 *   to accept an invite; otherwise `forbidden` (no session);
 * - install: a session (an installer may not have a group yet), back to the
 *   install page;
 * - json: the identity, no session (the sign-in is audited, `session.login` with flow `json`, in
 *   the commit that stores the token);
 * - discord_link / telegram_link: the chat link waits for its second confirmation in the
 *   browser that started it (`chat_link_confirm.ts`).
 */
import type { Kv } from "../store/backend/types.ts";
import type { Config } from "../config.ts";
import { type ErrorStatus, HttpError } from "../fresh/mod.ts";
import type { Logger } from "../log.ts";
import { newAuditEntry } from "../store/telemetry/audit.ts";
import type { OAuthFlow } from "../store/auth/oauth_states.ts";
import { createSession } from "../store/auth/sessions.ts";
import type { SignedInChatLink } from "./chat_link_confirm.ts";
import { consumeOAuthState, issueOAuthState, type StateRefusal } from "./oauth_state.ts";
import {
  authorizeUrl,
  exchangeCode,
  fetchUser,
  type GitHubUser,
  isOAuthFailure,
  type OAuthFailure,
} from "./oauth.ts";
import { browserBindingHash, browserBindingOf, startBrowserBinding } from "./browser_binding.ts";
import { userHasConsoleAccess } from "./principal.ts";
import { storeUserToken } from "./user_tokens.ts";

/** What the callback answers. */
type SignInOutcome =
  | { kind: "session"; sessionId: string; redirectTo: string }
  | { kind: "forbidden"; user: GitHubUser }
  | { kind: "json"; userId: string; login: string; redirectTo: string }
  | { kind: "chat_link"; pending: SignedInChatLink };

/** The services a sign-in needs (a request's state fits). */
interface SignInDeps {
  kv: Kv;
  config: Config;
  log: Logger;
}

const INVITE_PATH = "/admin/invite";

/**
 * The error for a failed exchange or lookup: GitHub's refusal (400, with its
 * message), or 502 with a fixed text when GitHub is unreachable (the network
 * error goes to the log only).
 */
function failure(what: string, outcome: OAuthFailure, log: Logger): HttpError {
  if (outcome.kind !== "unreachable") {
    return new HttpError(400, `GitHub refused ${what}: ${outcome.message}`);
  }
  log.warn("sign-in: GitHub unreachable", { step: what, error: outcome.message });
  return new HttpError(502, "GitHub is unreachable; try again later");
}

function installPath(flow: Extract<OAuthFlow, { kind: "install" }>): string {
  const query = new URLSearchParams({ installation_id: String(flow.installationId) });
  if (flow.setupAction) query.set("setup_action", flow.setupAction);
  return `/auth/github/install?${query}`;
}

function isInvitePath(path: string): boolean {
  return path === INVITE_PATH || path.startsWith(`${INVITE_PATH}?`);
}

async function startSession(
  deps: SignInDeps,
  user: GitHubUser,
  flow: OAuthFlow["kind"],
  redirectTo: string,
): Promise<SignInOutcome> {
  const now = Date.now();
  const audit = newAuditEntry({
    actor: { userId: user.userId, login: user.login },
    action: "session.login",
    detail: { flow },
  }, now);
  const { sessionId } = await createSession(deps.kv, user, now, audit);
  return { kind: "session", sessionId, redirectTo };
}

/** The flows that end in a browser session, and so are bound to the browser that starts them. */
const BROWSER_FLOWS: ReadonlySet<OAuthFlow["kind"]> = new Set(["browser", "install"]);

/**
 * Starts a sign-in for the flow the request asks for: a fresh state and the
 * redirect to GitHub. Browser and install sign-ins also (re)set the browser
 * binding cookie, and their state only works with it (login CSRF).
 */
export async function redirectToGitHub(
  req: Request,
  kv: Kv,
  config: Config,
  flow: OAuthFlow,
): Promise<Response> {
  const headers = new Headers({ "cache-control": "no-store" });
  let browserHash: string | undefined;
  if (BROWSER_FLOWS.has(flow.kind)) {
    const binding = startBrowserBinding(req, config);
    browserHash = await browserBindingHash(binding.value);
    headers.set("set-cookie", binding.setCookie);
  }
  const state = await issueOAuthState(kv, flow, browserHash);
  headers.set("location", authorizeUrl(config, state));
  return new Response(null, { status: 302, headers });
}

const STATE_REFUSALS: Record<StateRefusal, { status: ErrorStatus; message: string }> = {
  unknown: {
    status: 400,
    message: "This sign-in link is unknown or was already used; start the sign-in again",
  },
  expired: {
    status: 400,
    message: "This sign-in link has expired (after 10 minutes); start the sign-in again",
  },
  other_browser: {
    status: 403,
    message:
      "This sign-in was not started in this browser, so it cannot sign this browser in; start the sign-in again here",
  },
};

/**
 * Uses up the callback's `state` and answers the flow it was issued for.
 * Throws 400 for an unknown, used or expired state, and 403 when the state
 * belongs to a sign-in or chat link another browser started (it then stays usable there).
 */
export async function consumeSignInState(
  deps: SignInDeps,
  req: Request,
  state: string,
): Promise<OAuthFlow> {
  const binding = browserBindingOf(req, deps.config);
  const browserHash = binding === null ? null : await browserBindingHash(binding);
  const consumed = await consumeOAuthState(deps.kv, state, browserHash);
  if ("flow" in consumed) return consumed.flow;
  const refusal = STATE_REFUSALS[consumed.refused];
  throw new HttpError(refusal.status, refusal.message);
}

/** Completes a sign-in for `code` in `flow` (see the module comment). */
export async function completeSignIn(
  deps: SignInDeps,
  code: string,
  flow: OAuthFlow,
  now: number = Date.now(),
): Promise<SignInOutcome> {
  const grant = await exchangeCode(deps.config, code, now);
  if (isOAuthFailure(grant)) throw failure("the sign-in code", grant, deps.log);
  const user = await fetchUser(deps.config, grant.accessToken);
  if (isOAuthFailure(user)) throw failure("the user lookup", user, deps.log);
  // A sign-in that ends in no session (the JSON flow) is audited with its token.
  const audit = flow.kind === "json"
    ? newAuditEntry({
      actor: { userId: user.userId, login: user.login },
      action: "session.login",
      detail: { flow: flow.kind },
    }, now)
    : undefined;
  await storeUserToken(deps, { ...user, ...grant }, now, audit);

  switch (flow.kind) {
    case "browser": {
      const allowed = isInvitePath(flow.redirectTo) ||
        await userHasConsoleAccess(deps.kv, deps.config, user);
      if (!allowed) {
        return { kind: "forbidden", user };
      }
      return await startSession(deps, user, flow.kind, flow.redirectTo);
    }
    case "install":
      return await startSession(deps, user, flow.kind, installPath(flow));
    case "json":
      return { kind: "json", userId: user.userId, login: user.login, redirectTo: flow.redirectTo };
    case "discord_link":
    case "telegram_link": {
      const platform = flow.kind === "discord_link" ? "discord" : "telegram";
      const { chatUserId, requestId } = flow;
      return { kind: "chat_link", pending: { platform, chatUserId, requestId, user } };
    }
  }
}
