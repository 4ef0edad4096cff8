/**
 * The last step of a chat link (see `chat_link.ts`): after GitHub's callback the browser sees
 * the GitHub account and the chat account side by side, and a second same-origin POST links
 * them. The link uses the pending request up in the same commit as its audit entry, and the
 * chat hears about it through the caller's {@link ChatLinkAnnouncer} (chat-ops supplies it, so
 * this service knows no chat).
 */
import type { Kv, KvEntry } from "../store/backend/types.ts";
import type { Config } from "../config.ts";
import { HttpError } from "../fresh/mod.ts";
import type { Logger } from "../log.ts";
import type { Platform } from "../types.ts";
import {
  LINK_REQUEST_LIFETIME_MS,
  type LinkRequest,
  pendingLinkRequest,
} from "../store/auth/link_requests.ts";
import { chatLinkAudit, saveDiscordLink, saveTelegramLink } from "../store/auth/links.ts";
import {
  type ChatAccount,
  LINK_TOKEN_FIELD,
  linkFormToken,
  requestOfToken,
  requireLinkForm,
  unusableLink,
} from "./chat_link.ts";
import { browserBindingHash, browserBindingOf } from "./browser_binding.ts";
import type { GitHubUser } from "./oauth.ts";
import { signToken } from "./signed_token.ts";

/** The services linking needs. */
interface LinkDeps {
  kv: Kv;
  config: Config;
  log: Logger;
}

/** Tells the chat user of a request, once it is linked, which GitHub account they now act as. */
export type ChatLinkAnnouncer = (
  deps: LinkDeps,
  request: LinkRequest,
  login: string,
) => Promise<void>;

/** A chat link waiting for its second confirmation (the chat link flows' sign-in outcome). */
export interface SignedInChatLink {
  platform: Platform;
  chatUserId: string;
  requestId: string;
  user: GitHubUser;
}

/** What the side-by-side page shows, and its form's fields. */
interface PairView {
  account: ChatAccount;
  login: string;
  token: string;
  formToken: string;
}

/** What was linked. */
interface LinkedAccounts {
  account: ChatAccount;
  login: string;
}

function accountOf(request: LinkRequest): ChatAccount {
  const { platform, chatUserId, username } = request;
  return { platform, chatUserId, username };
}

async function requestOf(kv: Kv, pending: SignedInChatLink) {
  const request = await pendingLinkRequest(
    kv,
    pending.platform,
    pending.chatUserId,
    pending.requestId,
  );
  if (!request) throw unusableLink(pending.platform);
  return request;
}

/**
 * The side-by-side page for a signed-in chat link (its browser's binding was checked with the
 * state), with a confirmation token bound to that browser, the request and the GitHub account.
 */
export async function pairToConfirm(
  deps: LinkDeps,
  req: Request,
  pending: SignedInChatLink,
  now: number = Date.now(),
): Promise<PairView> {
  const request = await requestOf(deps.kv, pending);
  const binding = browserBindingOf(req, deps.config)!;
  const data = {
    p: pending.platform,
    u: pending.chatUserId,
    r: pending.requestId,
    g: pending.user.userId,
    l: pending.user.login,
    b: await browserBindingHash(binding),
  };
  const token = await signToken(deps.kv, "link_confirm", data, now + LINK_REQUEST_LIFETIME_MS);
  return {
    account: accountOf(request.value),
    login: pending.user.login,
    token,
    formToken: await linkFormToken(deps.kv, binding),
  };
}

/**
 * Links the request's chat user to `user`, using the request up and auditing it in one commit,
 * then tells the chat through `announce`. 400 when the request changed or went meanwhile.
 */
async function link(
  deps: LinkDeps,
  request: KvEntry<LinkRequest>,
  user: GitHubUser,
  announce: ChatLinkAnnouncer,
  now: number = Date.now(),
): Promise<LinkedAccounts> {
  const { platform, chatUserId } = request.value;
  const link = { userId: user.userId, login: user.login, linkedAt: now };
  const audit = chatLinkAudit("link.create", user, platform, chatUserId, "github sign-in", now);
  const saved = platform === "discord"
    ? await saveDiscordLink(deps.kv, { discordUserId: chatUserId, ...link }, audit, request)
    : await saveTelegramLink(deps.kv, { telegramUserId: chatUserId, ...link }, audit, request);
  if (!saved) throw unusableLink(platform);
  await announce(deps, request.value, user.login);
  return { account: accountOf(request.value), login: user.login };
}

/**
 * Links at once, for a client that is not a browser page (no `text/html`, no
 * `Sec-Fetch-Site`) but holds the browser binding the state was bound to. `announce` tells the
 * chat.
 */
export async function linkSignedIn(
  deps: LinkDeps,
  pending: SignedInChatLink,
  announce: ChatLinkAnnouncer,
): Promise<LinkedAccounts> {
  return await link(deps, await requestOf(deps.kv, pending), pending.user, announce);
}

/**
 * The side-by-side page's POST: same origin, this browser's binding and form token, and a
 * confirmation token issued to this browser for the still pending request. Links and answers
 * the pair (`announce` tells the chat); 403 for another browser or a bad form, 400 for an
 * unusable link.
 */
export async function confirmChatLink(
  deps: LinkDeps,
  req: Request,
  platform: Platform,
  form: FormData,
  announce: ChatLinkAnnouncer,
): Promise<LinkedAccounts> {
  const browserHash = await requireLinkForm(deps, req, form);
  const found = await requestOfToken(
    deps.kv,
    "link_confirm",
    platform,
    form.get(LINK_TOKEN_FIELD),
  );
  if (!found) throw unusableLink(platform);
  const { g: userId, l: login, b: bound } = found.data;
  if (bound !== browserHash) {
    throw new HttpError(403, "This link was signed in from another browser; confirm it there");
  }
  if (typeof userId !== "string" || typeof login !== "string") throw unusableLink(platform);
  return await link(deps, found.request, { userId, login }, announce);
}
