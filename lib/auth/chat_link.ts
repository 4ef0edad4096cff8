/**
 * Linking a chat user to a GitHub account, bound to the browser that confirms it:
 *
 * 1. The chat command (`/gh link`, `/gh login`) stores the chat user's one link request
 *    (`lib/store/auth/link_requests.ts`) and sends the user a link page address with a signed token.
 * 2. `GET /{platform}/link?token=…` names the chat user by their unique username, sets the
 *    browser binding cookie, and offers a form. Its same-origin POST (with a form token derived
 *    from the cookie) goes on to GitHub with an OAuth state bound to that cookie.
 * 3. The callback accepts that state only with the cookie, then shows the GitHub account and
 *    the chat account side by side (`chat_link_confirm.ts`); a second same-origin POST links
 *    them and uses the request up.
 *
 * Someone who is sent another person's link page sees whose it is and must confirm twice in
 * their own browser; someone sent GitHub's authorize address (or the callback) of another
 * browser's link links nothing.
 */
import type { Kv, KvEntry } from "../store/backend/types.ts";
import type { Config } from "../config.ts";
import { hmacSha256, randomToken, timingSafeEqual } from "../crypto.ts";
import { utf8 } from "../encoding.ts";
import { HttpError } from "../fresh/mod.ts";
import type { Platform } from "../types.ts";
import {
  LINK_REQUEST_LIFETIME_MS,
  type LinkRequest,
  pendingLinkRequest,
  saveLinkRequest,
} from "../store/auth/link_requests.ts";
import { signingKey } from "../store/auth/instance_secret.ts";
import { CSRF_FIELD, requireSameOrigin } from "./access.ts";
import { browserBindingHash, browserBindingOf, startBrowserBinding } from "./browser_binding.ts";
import { authorizeUrl } from "./oauth.ts";
import { issueOAuthState } from "./oauth_state.ts";
import { signToken, verifyToken } from "./signed_token.ts";

/** The form field that carries a link page or confirmation token. */
export const LINK_TOKEN_FIELD = "token";

/** What a chat command knows about the chat user who asks to link. */
export interface ChatLinkStart {
  platform: Platform;
  chatUserId: string;
  /** The platform's unique username, if the user has one (checked here; else the id is used). */
  username?: string;
  interactionToken?: string;
  telegramChatId?: string;
}

/** The chat account a page names. */
export interface ChatAccount {
  platform: Platform;
  chatUserId: string;
  username: string;
}

/** What a chat link page shows: the first page, the pair to confirm, the result, a dead link. */
export type ChatLinkView =
  | { kind: "start"; account: ChatAccount; token: string; formToken: string }
  | { kind: "to_github"; account: ChatAccount; authorizeUrl: string }
  | { kind: "pair"; account: ChatAccount; login: string; token: string; formToken: string }
  | { kind: "linked"; account: ChatAccount; login: string }
  | { kind: "unusable"; platform: Platform };

/** The services the link pages need. */
interface ChatLinkDeps {
  kv: Kv;
  config: Config;
}

/** Unique usernames: Discord's (2-32 of a-z 0-9 _ .), Telegram's (4-32 of A-Z a-z 0-9 _). */
const USERNAME_FORMAT: Record<Platform, RegExp> = {
  discord: /^[a-z0-9_.]{2,32}$/,
  telegram: /^[A-Za-z0-9_]{4,32}$/,
};

/** The name a page shows for the chat user: `@username` when valid, else the numeric id. */
function chatUsername(platform: Platform, chatUserId: string, username?: string): string {
  return username && USERNAME_FORMAT[platform].test(username) ? `@${username}` : chatUserId;
}

/** The link page's address for a link page token. */
function linkPageUrl(config: Config, platform: Platform, token: string): string {
  return `${config.baseUrl}/${platform}/link?${LINK_TOKEN_FIELD}=${encodeURIComponent(token)}`;
}

/**
 * Starts linking a chat user: stores their link request (replacing an earlier one) and answers
 * the link page's address (single use, 10 minutes). Send it to that user only.
 */
export async function startChatLink(
  kv: Kv,
  config: Config,
  start: ChatLinkStart,
  now: number = Date.now(),
): Promise<string> {
  const request: LinkRequest = {
    platform: start.platform,
    chatUserId: start.chatUserId,
    requestId: randomToken(16),
    username: chatUsername(start.platform, start.chatUserId, start.username),
    createdAt: now,
    ...(start.interactionToken ? { interactionToken: start.interactionToken } : {}),
    ...(start.telegramChatId ? { telegramChatId: start.telegramChatId } : {}),
  };
  await saveLinkRequest(kv, request);
  const data = { p: request.platform, u: request.chatUserId, r: request.requestId };
  const token = await signToken(kv, "link_page", data, now + LINK_REQUEST_LIFETIME_MS);
  return linkPageUrl(config, start.platform, token);
}

/** The pending request a token of `purpose` names, for `platform`; null when unusable. */
export async function requestOfToken(
  kv: Kv,
  purpose: "link_page" | "link_confirm",
  platform: Platform,
  token: unknown,
): Promise<{ request: KvEntry<LinkRequest>; data: Record<string, unknown> } | null> {
  const verified = await verifyToken(kv, purpose, typeof token === "string" ? token : null);
  if ("refused" in verified) return null;
  const data = verified.data as Record<string, unknown> | null;
  if (data?.p !== platform || typeof data.u !== "string" || typeof data.r !== "string") return null;
  const request = await pendingLinkRequest(kv, platform, data.u, data.r);
  return request ? { request, data } : null;
}

/** The form token of a browser binding: the link forms' CSRF token. */
export async function linkFormToken(kv: Kv, binding: string): Promise<string> {
  const mac = await hmacSha256(await signingKey(kv, "link form"), utf8(binding));
  return mac.toBase64({ alphabet: "base64url", omitPadding: true });
}

/**
 * Checks a link form POST: same origin, the browser binding cookie the page set, and the form
 * token derived from it (403 otherwise). Answers the binding's hash.
 */
export async function requireLinkForm(
  deps: ChatLinkDeps,
  req: Request,
  form: FormData,
): Promise<string> {
  requireSameOrigin(req, deps.config);
  const binding = browserBindingOf(req, deps.config);
  if (!binding) {
    throw new HttpError(
      403,
      "This browser did not open the link page; open the link from the chat again here",
    );
  }
  const submitted = form.get(CSRF_FIELD);
  const expected = await linkFormToken(deps.kv, binding);
  if (typeof submitted !== "string" || !timingSafeEqual(utf8(submitted), utf8(expected))) {
    throw new HttpError(403, "Invalid or missing form token; reload the page and try again");
  }
  return await browserBindingHash(binding);
}

/** What the first page shows: the chat account, its form's fields and the cookie to set. */
interface LinkPageView {
  account: ChatAccount;
  token: string;
  formToken: string;
  setCookie: string;
}

/** The first page for a link page token (and the binding cookie it sets); null when unusable. */
export async function openLinkPage(
  deps: ChatLinkDeps,
  req: Request,
  platform: Platform,
  token: string | null,
): Promise<LinkPageView | null> {
  const found = await requestOfToken(deps.kv, "link_page", platform, token);
  if (!found) return null;
  const { chatUserId, username } = found.request.value;
  const binding = startBrowserBinding(req, deps.config);
  return {
    account: { platform, chatUserId, username },
    token: token!,
    formToken: await linkFormToken(deps.kv, binding.value),
    setCookie: binding.setCookie,
  };
}

/** The refusal for a link that is unknown, replaced, used or too old. */
export function unusableLink(platform: Platform): HttpError {
  const command = platform === "discord" ? "Run /gh link in Discord" : "Send /gh login to the bot";
  return new HttpError(
    400,
    `This link is unknown, was replaced by a newer one, was used or is older than 10 minutes. ${command} again.`,
  );
}

/**
 * The first page's POST: checks the form, and answers the chat account and GitHub's authorize
 * address with a state bound to this browser and to the pending request.
 */
export async function continueToGitHub(
  deps: ChatLinkDeps,
  req: Request,
  platform: Platform,
  form: FormData,
): Promise<{ account: ChatAccount; authorizeUrl: string }> {
  const browserHash = await requireLinkForm(deps, req, form);
  const found = await requestOfToken(deps.kv, "link_page", platform, form.get(LINK_TOKEN_FIELD));
  if (!found) throw unusableLink(platform);
  const { chatUserId, requestId, username } = found.request.value;
  const flow = { kind: `${platform}_link` as const, chatUserId, requestId };
  const state = await issueOAuthState(deps.kv, flow, browserHash);
  return {
    account: { platform, chatUserId, username },
    authorizeUrl: authorizeUrl(deps.config, state),
  };
}
