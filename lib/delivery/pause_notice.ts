/**
 * Tells a group's owners, in private, that one of its targets was paused: each owner's linked
 * Discord and Telegram accounts get one message in their private chat (`private_chat.ts`: a
 * Telegram private chat, a Discord DM channel opened once and remembered), through the platform's
 * adapter and its rate limiter, saying what the platform answered, what to fix, and how to
 * resume (`/gh resume` in the place, or the console). Sent once, by the lane whose commit paused the target.
 */
import { getGroup } from "../store/config/groups.ts";
import { chatUsersLinkedTo } from "../store/auth/links.ts";
import type { TargetHealth } from "../store/delivery/target_health.ts";
import { describeTargetRef } from "../target_ref.ts";
import type { Platform } from "../types.ts";
import { chatPlatform } from "./adapters.ts";
import type { DeliveryContext } from "./context.ts";
import { openPrivateChat } from "./private_chat.ts";

/** Most private messages one pause sends. */
const MAX_RECIPIENTS = 10;

/** What the person should change, by the target's platform. */
function fixFor(health: TargetHealth): string {
  if (health.state === "paused") return "check that the platform answers again";
  return chatPlatform(health.target.platform).cannotPostFix.clause;
}

/** The notice in plain words. */
function pauseNoticeText(health: TargetHealth, groupName: string): string {
  const answer = health.httpStatus === undefined ? "" : ` (answer ${health.httpStatus}` +
    `${health.lastError ? `: ${health.lastError.slice(0, 200)}` : ""})`;
  const why = health.state === "broken"
    ? `the bot cannot post there${answer}`
    : `it failed ${health.failures} times in a row${answer}`;
  return `Switchyard paused ${describeTargetRef(health.target)} for group ${groupName} ` +
    `(${health.groupId}): ${why}. Its messages are held, none is lost. To fix: ${
      fixFor(health)
    }, then send /gh resume there or press Resume on the group's page in the console. ` +
    "Discard on the same page drops what is held.";
}

function bodyFor(platform: Platform, text: string): unknown {
  const chatText = chatPlatform(platform).text;
  return chatText.body(chatText.plain(text));
}

/** Sends the pause notice to the linked chat accounts of the group's owners. */
export async function tellOwners(ctx: DeliveryContext, health: TargetHealth): Promise<number> {
  const group = await getGroup(ctx.kv, health.groupId);
  if (!group) return 0;
  const text = pauseNoticeText(health, group.name);
  const owners = group.members.filter((member) => member.role === "owner");
  let sent = 0;
  for (const [platform, adapter] of ctx.adapters) {
    if (adapter.unavailable() !== null) continue;
    for (const owner of owners) {
      for (const userId of await chatUsersLinkedTo(ctx.kv, platform as Platform, owner.login)) {
        if (sent >= MAX_RECIPIENTS) return sent;
        const chat = await openPrivateChat(ctx, platform as Platform, userId);
        if (chat.kind !== "open") continue;
        const id = `pause-${health.groupId}-${health.pausedAt}-${userId}`;
        const result = await chat.post(bodyFor(platform as Platform, text), id);
        if (result.kind === "sent") sent++;
        else ctx.log.warn("pause notice not sent", { platform, error: result.error });
      }
    }
  }
  return sent;
}
