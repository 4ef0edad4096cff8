/**
 * The link pages `/discord/link` and `/telegram/link` (see `chat_link.ts`): GET shows the chat
 * account and sets the browser binding; POST `intent=continue` goes on to GitHub, POST
 * `intent=confirm` (from the page the callback shows) links the pair. Answers are never cached
 * and send no referrer (the address carries the link token).
 *
 * The way on to GitHub is a page that refreshes to GitHub's address (with a link to it), not a
 * redirect: the pages' Content-Security-Policy (`form-action 'self'`) stops a form's redirect
 * to another site.
 */
import { type Context, HttpError, page, type PageResponse } from "../fresh/mod.ts";
import { readFormBody } from "../http_body.ts";
import { requireFeature } from "../http_guards.ts";
import { FORM_BODY_BYTES } from "../limits.ts";
import type { State } from "../state.ts";
import type { Platform } from "../types.ts";
import {
  type ChatLinkView,
  continueToGitHub,
  LINK_TOKEN_FIELD,
  openLinkPage,
} from "./chat_link.ts";
import { type ChatLinkAnnouncer, confirmChatLink } from "./chat_link_confirm.ts";

const NO_STORE = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

/** GET: the first page, or 404 "Link not valid". */
export async function showLinkPage(
  ctx: Context<State>,
  platform: Platform,
): Promise<PageResponse<ChatLinkView>> {
  requireFeature(ctx.state.config, "GitHub sign-in");
  const token = ctx.url.searchParams.get(LINK_TOKEN_FIELD);
  const opened = await openLinkPage(ctx.state, ctx.req, platform, token);
  if (!opened) {
    return page<ChatLinkView>({ kind: "unusable", platform }, { status: 404, headers: NO_STORE });
  }
  const { setCookie, ...view } = opened;
  return page<ChatLinkView>({ kind: "start", ...view }, {
    headers: { ...NO_STORE, "set-cookie": setCookie },
  });
}

/** POST: the way on to GitHub, or the linked pair (`announce` tells the chat). */
export async function submitLinkPage(
  ctx: Context<State>,
  platform: Platform,
  announce: ChatLinkAnnouncer,
): Promise<PageResponse<ChatLinkView>> {
  requireFeature(ctx.state.config, "GitHub sign-in");
  const form = await readFormBody(ctx.req, { maxBytes: FORM_BODY_BYTES });
  switch (form.get("intent")) {
    case "continue": {
      const next = await continueToGitHub(ctx.state, ctx.req, platform, form);
      return page<ChatLinkView>({ kind: "to_github", ...next }, { headers: NO_STORE });
    }
    case "confirm": {
      const linked = await confirmChatLink(ctx.state, ctx.req, platform, form, announce);
      return page<ChatLinkView>({ kind: "linked", ...linked }, { headers: NO_STORE });
    }
    default:
      throw new HttpError(400, "Unknown intent: continue or confirm");
  }
}
