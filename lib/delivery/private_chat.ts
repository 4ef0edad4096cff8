/**
 * A person's private chat, for personal messages (notifications and reminders): Telegram's
 * private chat with the bot (its chat id is the user's id), Discord's DM channel, opened once
 * and remembered (lib/store/notify/notify_cache.ts). Every post into it goes through the
 * platform's adapter, reserved from its rate limiter first (`chat_calls.ts`). A remembered chat
 * the platform no longer knows (404) is forgotten and opened again, once, for the same post.
 */
import type { Kv } from "../store/backend/types.ts";
import type { PlatformAdapter, RememberedChats } from "../platform/adapter.ts";
import type { Pacing } from "../platform/pacing.ts";
import type { SendResult } from "../platform/send_result.ts";
import { forgetDmChannel, getDmChannel, saveDmChannel } from "../store/notify/notify_cache.ts";
import type { Platform, Target } from "../types.ts";
import type { Adapters } from "./adapters.ts";
import { chatCalls } from "./chat_calls.ts";

/** What opening a private chat needs: storage, the adapters, and the pacing of its calls. */
export interface PrivateChatContext extends Pacing {
  kv: Kv;
  adapters: Adapters;
}

/** A private chat, or why it cannot be used. */
export type PrivateChat =
  | {
    kind: "open";
    adapter: PlatformAdapter;
    /** The chat, after a post the one it went to (a newly opened one when the old was gone). */
    readonly target: Target;
    /** Posts `body`; `id` names the post, so a repeated call shows one message. */
    post(body: unknown, id: string): Promise<SendResult>;
  }
  /** The platform has no adapter, or its adapter is not configured (`reason` says which). */
  | { kind: "unavailable"; reason: string }
  /** The platform did not open the chat: its answer. */
  | { kind: "unopened"; result: SendResult };

/** The DM channels opened with chat accounts, kept between messages; `recalled` the last read. */
function dmChannels(kv: Kv): RememberedChats & { recalled: string | null } {
  const chats = {
    recalled: null as string | null,
    get: async (userId: string) => chats.recalled = await getDmChannel(kv, userId),
    save: (userId: string, channelId: string) => saveDmChannel(kv, userId, channelId),
  };
  return chats;
}

/**
 * The private chat on `platform` that `chat` names: a target is the chat itself; a chat
 * account's user id is turned into its chat by the platform's adapter (on Discord, the DM
 * channel taken from the cache or opened and remembered).
 */
export async function openPrivateChat(
  ctx: PrivateChatContext,
  platform: Platform,
  chat: Target | string,
): Promise<PrivateChat> {
  const adapter = ctx.adapters.get(platform);
  if (!adapter) return { kind: "unavailable", reason: "no adapter" };
  const unavailable = adapter.unavailable();
  if (unavailable) return { kind: "unavailable", reason: unavailable };
  const remembered = dmChannels(ctx.kv);
  const opened = typeof chat === "string"
    ? await adapter.directTarget(chat, ctx, remembered)
    : chat;
  if (!("platform" in opened)) return { kind: "unopened", result: opened };
  const calls = chatCalls(ctx, adapter, false);
  let target: Target = opened;
  const post = async (body: unknown, id: string): Promise<SendResult> => {
    const result = await calls.post(target, body, id);
    const gone = adapter.channelOf(target);
    const staleMemory = typeof chat === "string" && remembered.recalled === gone &&
      result.kind === "rejected" && result.httpStatus === 404;
    if (!staleMemory) return result;
    // The remembered chat is gone (Discord: Unknown Channel): open a new one and post there.
    await forgetDmChannel(ctx.kv, chat, gone);
    const reopened = await adapter.directTarget(chat, ctx, remembered);
    if (!("platform" in reopened) || adapter.channelOf(reopened) === gone) return result;
    target = reopened;
    return await calls.post(target, body, id);
  };
  return {
    kind: "open",
    adapter,
    get target() {
      return target;
    },
    post,
  };
}
