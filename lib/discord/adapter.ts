/**
 * Discord as a chat platform (`lib/platform/adapter.ts`): a target posts into its thread when it
 * names one, else its channel; threads are started from a subject's card; every answer updates
 * the channel's bucket (or the global block) in the rate limiter. Posts carry a nonce derived
 * from the post's id, so a retry whose answer was lost shows the message once.
 */
import { type Config, FEATURES } from "../config.ts";
import { sha256Hex } from "../crypto.ts";
import type { DiscordMessageBody } from "../format/discord.ts";
import { type PlatformAdapter, wrongTarget } from "../platform/adapter.ts";
import type { Target } from "../types.ts";
import {
  deleteDiscordMessage,
  type DiscordEditResult,
  editDiscordMessage,
  startDiscordThread,
} from "./edit.ts";
import { DiscordRateLimiter } from "./rate_limit.ts";
import { sendDiscordMessage } from "./send.ts";
import { openDirectTarget } from "./dm.ts";

/** Discord's longest accepted message nonce. */
const NONCE_LENGTH = 25;

/** The Discord message nonce of a post: the same on every attempt, at most 25 characters. */
export async function discordNonceFor(id: string): Promise<string> {
  return (await sha256Hex(id)).slice(0, NONCE_LENGTH);
}

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
    directTarget: (userId, remembered) => openDirectTarget(settings, userId, remembered),
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
