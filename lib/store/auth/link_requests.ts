/**
 * Pending chat link requests: `/gh link` (Discord) and `/gh login` (Telegram) store one for the
 * chat user who sent it, under `["link_requests", platform, chatUserId]` for 10 minutes. A chat
 * user has at most one: a new command replaces the previous request, whose links then stop
 * working. The request carries what the pages and the confirmation need: the chat user's unique
 * username, and where to confirm the link in the chat. Linking uses it up in the same commit.
 */
import type { Kv, KvEntry } from "../backend/types.ts";
import type { Platform } from "../../types.ts";
import { linkRequestKey } from "../keys.ts";

/** How long a link request stays usable. */
export const LINK_REQUEST_LIFETIME_MS = 10 * 60 * 1000;

/** A chat user's pending request to link a GitHub account. */
export interface LinkRequest {
  platform: Platform;
  chatUserId: string;
  /** Random; the page, state and confirmation tokens name it, so a replaced request's fail. */
  requestId: string;
  /** The chat user's unique username (Discord `username`, Telegram `username` or the id). */
  username: string;
  createdAt: number;
  /** The `/gh link` interaction, to confirm the link in Discord (valid 15 minutes). */
  interactionToken?: string;
  /** The Telegram chat that hears the confirmation (the user's private chat with the bot). */
  telegramChatId?: string;
}

/** Stores the chat user's request, replacing any earlier one. */
export async function saveLinkRequest(kv: Kv, request: LinkRequest): Promise<void> {
  await kv.set(linkRequestKey(request.platform, request.chatUserId), request, {
    expireIn: LINK_REQUEST_LIFETIME_MS,
  });
}

/**
 * The chat user's pending request when it is the one `requestId` names and still within its
 * lifetime (the entry, for a commit that uses it up); null otherwise.
 */
export async function pendingLinkRequest(
  kv: Kv,
  platform: Platform,
  chatUserId: string,
  requestId: string,
  now: number = Date.now(),
): Promise<KvEntry<LinkRequest> | null> {
  const entry = await kv.get<LinkRequest>(linkRequestKey(platform, chatUserId));
  const request = entry.value;
  if (!request || request.requestId !== requestId) return null;
  if (now - request.createdAt >= LINK_REQUEST_LIFETIME_MS) return null;
  return entry as KvEntry<LinkRequest>;
}
