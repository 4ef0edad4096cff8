/**
 * The gate of every press on a notification's buttons: the notification is known (its message
 * ref in this channel), the button's tag names what it is about, `chatActionRefusal` allows
 * the press (the route's roles, the group's binding to the repository), and the presser is
 * linked. Refusals are ephemeral answers.
 */
import { type DiscordLink, getDiscordLink } from "../../store/auth/links.ts";
import {
  getMessageRef,
  MESSAGE_REF_LIFETIME_MS,
  type MessageRef,
  type NotificationSubject,
} from "../../store/delivery/message_refs.ts";
import { notLinkedText } from "../act.ts";
import { chatActionRefusal } from "../authorize.ts";
import { subjectTag } from "../../format/subject.ts";
import { type DiscordDeps, type InteractionAnswer, now } from "./answer.ts";
import { discordPlace, type Interaction, invokerOf } from "./interaction.ts";
import { ephemeral } from "./reply.ts";

const SNOWFLAKE = /^\d{1,20}$/;

/** A press allowed on a notification: what it is about, the presser's link and the record. */
type PressGate<T> =
  | { ok: true; item: T; link: DiscordLink; notification: MessageRef }
  | { ok: false; answer: InteractionAnswer };

/** A refusal shown to the presser alone. */
export function refused(text: string): { ok: false; answer: InteractionAnswer } {
  return { ok: false, answer: now(ephemeral(text)) };
}

/** A `custom_id` split into its name and the item tag after its `#` (the tag may be missing). */
export function splitTag(customId: string): { id: string; tag: string | undefined } {
  const hash = customId.indexOf("#");
  return hash < 0
    ? { id: customId, tag: undefined }
    : { id: customId.slice(0, hash), tag: customId.slice(hash + 1) };
}

/** Whether the pressed message is younger than the time its record is kept. */
function recentlySent(interaction: Interaction): boolean {
  const sent = Date.parse(interaction.message?.timestamp ?? "");
  return Number.isFinite(sent) && Date.now() - sent < MESSAGE_REF_LIFETIME_MS;
}

function unknownNotification(interaction: Interaction): { ok: false; answer: InteractionAnswer } {
  return refused(
    recentlySent(interaction)
      ? "Switchyard does not act on this notification: its repository is not one the group " +
        "that sent it is bound to (the group's GitHub App installation or owners)."
      : "Switchyard no longer knows what this notification is about (after 30 days it " +
        "forgets); use /gh with owner/repo#number instead.",
  );
}

/**
 * Whether the presser may act on the notification `messageId` of this channel: it is known,
 * `itemOf` finds in it what the button acts on, the button's `tag` names that, and
 * `chatActionRefusal` allows it (roles, binding), and the presser is linked.
 */
export async function gatePress<T>(
  deps: DiscordDeps,
  interaction: Interaction,
  messageId: string | undefined,
  tag: string | undefined,
  itemOf: (subject: NotificationSubject) => { item: T; name: string } | null,
): Promise<PressGate<T>> {
  const channelId = interaction.channel_id;
  const invoker = invokerOf(interaction);
  if (!channelId || !messageId || !SNOWFLAKE.test(messageId) || !invoker) {
    return refused("This button is not on a notification Switchyard knows.");
  }
  const notification = await getMessageRef(deps.kv, {
    platform: "discord",
    chatId: channelId,
    messageId,
  });
  if (!notification) return unknownNotification(interaction);
  const { subject } = notification;
  const found = itemOf(subject);
  if (!found) return refused("This button does not fit this notification; nothing was done.");
  if (tag !== subjectTag(subject.repository, subject.number)) {
    return refused(
      `This button does not name ${found.name}, which its notification is about; nothing ` +
        "was done.",
    );
  }
  const refusal = await chatActionRefusal(
    deps.kv,
    discordPlace(interaction),
    { kind: "notification", notification },
    new Set(interaction.member?.roles ?? []),
  );
  if (refusal !== null) return refused(refusal);
  const link = await getDiscordLink(deps.kv, invoker.id);
  if (!link) return refused(notLinkedText());
  return { ok: true, item: found.item, link, notification };
}

/** `id` with the item tag of the notification, when it has one. */
export function tagged(id: string, tag: string | undefined): string {
  return tag === undefined ? id : `${id}#${tag}`;
}
