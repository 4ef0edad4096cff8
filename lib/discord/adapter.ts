/**
 * Discord as a chat platform (`lib/platform/adapter.ts`): a target posts into its thread when it
 * names one, else its channel; threads are started from a subject's card; every answer updates
 * the channel's bucket (or the global block) in the rate limiter. Posts carry a nonce derived
 * from the post's id, so a retry whose answer was lost shows the message once.
 */
import { type Config, FEATURES } from "../config.ts";
import { sha256Hex } from "../crypto.ts";
import type { DiscordMessageBody } from "../format/discord.ts";
import { type PlatformAdapter, refusedCall, wrongTarget } from "../platform/adapter.ts";
import { type Pacing, waitForTurn } from "../platform/pacing.ts";
import type { Target } from "../types.ts";
import {
  deleteDiscordMessage,
  type DiscordEditResult,
  editDiscordMessage,
  startDiscordThread,
} from "./edit.ts";
import { DiscordRateLimiter } from "./rate_limit.ts";
import { sendDiscordMessage } from "./send.ts";
import { openDirectTarget, type PacedCall } from "./dm.ts";
import { createThreadParents } from "./threads.ts";

/** Discord's longest accepted message nonce. */
const NONCE_LENGTH = 25;

/** The Discord message nonce of a post: the same on every attempt, at most 25 characters. */
export async function discordNonceFor(id: string): Promise<string> {
  return (await sha256Hex(id)).slice(0, NONCE_LENGTH);
}

/** The rate limiter's key for opening DM channels (one route, not a channel). */
const DM_OPENING = "users/@me/channels";

/** The channel or thread a message to a Discord target is posted in ("" for another platform). */
function channelOf(target: Target): string {
  return target.platform === "discord" ? target.threadId ?? target.channelId : "";
}

/** Discord's adapter, with `limiter` seeing every call. */
export function createDiscordAdapter(
  config: Config,
  limiter: DiscordRateLimiter = new DiscordRateLimiter(),
): PlatformAdapter {
  const settings = config.discord;
  /** Makes `call` into `channelId` and lets the limiter learn from its answer. */
  const observed = async <R extends DiscordEditResult>(
    channelId: string,
    call: () => Promise<R>,
  ): Promise<R> => {
    const result = await call();
    const rateLimit = result.rateLimit;
    limiter.observe(
      channelId,
      result.kind === "rate_limited"
        ? {
          kind: "rate_limited",
          retryAfterMs: result.retryAfterMs,
          global: result.global,
          rateLimit,
        }
        : { kind: "answer", rateLimit },
    );
    return result;
  };
  /** Calls under the limiter's `key`, each reserved with `pacing` first, then observed. */
  const pacedUnder = (key: string, pacing: Pacing): PacedCall => async (call) =>
    await waitForTurn(pacing, (maxWaitMs) => limiter.reserve(key, maxWaitMs)) ??
      await observed(key, call);
  const threads = createThreadParents(settings);
  return {
    platform: "discord",
    unavailable: () =>
      FEATURES.Discord(config)
        ? null
        : "Discord is not configured: set DISCORD_BOT_TOKEN and restart",
    channelOf,
    placeOf: channelOf,
    threadStyle: (target) =>
      target.platform === "discord" && target.threadId === undefined ? "thread" : "none",
    inThread: (target, threadId) =>
      target.platform === "discord" ? { ...target, threadId } : target,
    asReply: (body) => body,
    reserve: (target, maxWaitMs) => limiter.reserve(channelOf(target), maxWaitMs),
    paceOf: (target) => limiter.paceOf(channelOf(target)),
    adopt: (target, pace) => limiter.adopt(channelOf(target), pace),
    shareGlobal: (instances) => limiter.shareGlobal(instances),
    async post(target, body, id) {
      if (target.platform !== "discord") return wrongTarget("Discord");
      const nonce = await discordNonceFor(id);
      const channelId = channelOf(target);
      return await observed(
        channelId,
        () => sendDiscordMessage(settings, channelId, body as DiscordMessageBody, nonce),
      );
    },
    async edit(target, messageId, body) {
      if (target.platform !== "discord") return wrongTarget("Discord");
      const channelId = channelOf(target);
      return await observed(
        channelId,
        () => editDiscordMessage(settings, channelId, messageId, body as DiscordMessageBody),
      );
    },
    async delete(target, messageId) {
      if (target.platform !== "discord") return wrongTarget("Discord");
      const channelId = channelOf(target);
      return await observed(channelId, () => deleteDiscordMessage(settings, channelId, messageId));
    },
    editButtons: () => Promise.resolve(wrongTarget("Telegram")),
    botCall: () => Promise.resolve(refusedCall("chat-ops answer with the interaction's token")),
    directTarget: (userId, pacing, remembered) =>
      openDirectTarget(settings, userId, pacedUnder(DM_OPENING, pacing), remembered),
    async parentOf(target, pacing) {
      if (target.platform !== "discord" || target.threadId === undefined) return { kind: "none" };
      const thread = await threads.lookup(target.threadId, pacedUnder(target.threadId, pacing));
      if (thread.kind === "failed") return thread;
      return thread.kind === "thread" && thread.parentId === target.channelId
        ? { kind: "within" }
        : {
          kind: "elsewhere",
          error: `${target.threadId} is not a thread of channel ${target.channelId}`,
        };
    },
    async startThread(target, messageId, name) {
      if (target.platform !== "discord" || target.threadId !== undefined) {
        return wrongTarget("Discord channel");
      }
      return await observed(
        target.channelId,
        () => startDiscordThread(settings, target.channelId, messageId, name),
      );
    },
  };
}
