/**
 * Platform calls of noise control made outside a unit's own send: posting a digest (from the
 * lane or when its window ends), editing digests and thread cards, starting threads, and
 * replies in them. Each call goes through the target guard first (`target_guard.ts`): it is
 * made only while the group it is made for may post into the target's channel or chat (read
 * afresh for each call, as no later check covers it), so a
 * digest or thread never reaches a target its group lost, nor the targets of a deleted group.
 * A refused call makes no request and answers `refused` with the guard's reason. A thread
 * noise control started from a card in a channel goes with that channel. Discord posts carry a
 * nonce derived from the digest id, so a repeated close shows one message.
 */
import type { Config } from "../config.ts";
import { editDiscordMessage, startDiscordThread } from "../discord/edit.ts";
import { sendDiscordMessage } from "../discord/send.ts";
import type { DiscordMessageBody } from "../format/discord.ts";
import type { TelegramMessageBody } from "../format/telegram.ts";
import { editAsSendResult } from "../platform/edit_result.ts";
import type { SendResult } from "../platform/send_result.ts";
import { editTelegramMessage } from "../telegram/edit.ts";
import { sendTelegramMessage } from "../telegram/send.ts";
import type { Target } from "../types.ts";
import type { TargetGuard, TargetOwner } from "./target_guard.ts";
import { discordNonceFor } from "./targets.ts";

/** What noise control's platform calls need: the platform settings and the target guard. */
export interface NoisePlatformDeps {
  config: Config;
  targets: TargetGuard;
}

/** A call's outcome: the platform's answer, or the guard's refusal (no request was made). */
export type GuardedResult = SendResult | { kind: "refused"; error: string };

/** The HTTP-like status a refused call stands for in a unit's send log. */
const REFUSED_STATUS = 403;

/** The channel or thread a Discord target posts into. */
export function discordChannelOf(target: Extract<Target, { platform: "discord" }>): string {
  return target.threadId ?? target.channelId;
}

/**
 * Makes `call` only when the guard allows `owner` (the group and the target it posts into);
 * when the guard cannot tell yet, its answer stands for the call (the retry policy decides).
 */
export async function throughGuard(
  targets: TargetGuard,
  owner: TargetOwner,
  call: () => Promise<SendResult>,
): Promise<GuardedResult> {
  const verdict = await targets.check(owner, true);
  if (verdict.kind === "refused") return { kind: "refused", error: verdict.error };
  if (verdict.kind === "unsure") return verdict.result;
  return await call();
}

/** A guarded call's outcome as a unit's result: a refusal is final, with the guard's reason. */
export function asSendResult(result: GuardedResult): SendResult {
  return result.kind === "refused"
    ? { kind: "rejected", httpStatus: REFUSED_STATUS, error: result.error }
    : result;
}

/** Posts `body` to `owner.target` for `owner.groupId`; `id` names the post for Discord's nonce. */
export async function postMessage(
  deps: NoisePlatformDeps,
  owner: TargetOwner,
  id: string,
  body: unknown,
): Promise<GuardedResult> {
  const target = owner.target;
  return await throughGuard(deps.targets, owner, async () => {
    if (target.platform === "discord") {
      return await sendDiscordMessage(
        deps.config.discord,
        discordChannelOf(target),
        body as DiscordMessageBody,
        await discordNonceFor(id),
      );
    }
    return await sendTelegramMessage(deps.config.telegram, target, body as TelegramMessageBody);
  });
}

/**
 * Replaces message `messageId` at `owner.target` with `body`, for `owner.groupId`; a message no
 * longer there is refused by the platform.
 */
export async function editMessage(
  deps: NoisePlatformDeps,
  owner: TargetOwner,
  messageId: string,
  body: unknown,
): Promise<GuardedResult> {
  const target = owner.target;
  return await throughGuard(deps.targets, owner, async () => {
    if (target.platform === "discord") {
      return editAsSendResult(
        await editDiscordMessage(
          deps.config.discord,
          discordChannelOf(target),
          messageId,
          body as DiscordMessageBody,
        ),
      );
    }
    return editAsSendResult(
      await editTelegramMessage(
        deps.config.telegram,
        target.chatId,
        messageId,
        body as TelegramMessageBody,
      ),
    );
  });
}

/**
 * Starts a Discord thread named `name` from the card `messageId` in the channel of
 * `owner.target`, for `owner.groupId`; a sent result's `messageId` is the thread's id.
 */
export async function startThread(
  deps: NoisePlatformDeps,
  owner: { groupId: string; target: Extract<Target, { platform: "discord" }> },
  messageId: string,
  name: string,
): Promise<GuardedResult> {
  const channelId = owner.target.channelId;
  return await throughGuard(
    deps.targets,
    { groupId: owner.groupId, target: { platform: "discord", channelId } },
    () => startDiscordThread(deps.config.discord, channelId, messageId, name),
  );
}
