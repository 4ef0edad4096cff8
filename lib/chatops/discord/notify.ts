/**
 * `/gh notify [state]` on Discord: the invoker's personal-notification settings in words, and
 * with `state` `off` or `on`, pausing or resuming all of them. Kinds and quiet hours are switched
 * on the console's account page (`lib/notify/controls.ts` holds what both share).
 */
import { setPaused, settingsSummary } from "../../notify/controls.ts";
import { getDiscordLink } from "../../store/auth/links.ts";
import { getNotifySettings } from "../../store/notify/notify_settings.ts";
import { notLinkedText } from "../act.ts";
import { type DiscordDeps, type InteractionAnswer, now } from "./answer.ts";
import { ephemeral } from "./reply.ts";

/** Answers `/gh notify` for the Discord user `invokerId`; `state` is the option, if given. */
export async function answerNotify(
  deps: DiscordDeps,
  invokerId: string,
  state: string | undefined,
): Promise<InteractionAnswer> {
  const link = await getDiscordLink(deps.kv, invokerId);
  if (!link) return now(ephemeral(notLinkedText()));
  if (state !== undefined && state !== "on" && state !== "off") {
    return now(ephemeral("Use /gh notify, /gh notify state:on or /gh notify state:off."));
  }
  const settings = state === undefined
    ? await getNotifySettings(deps.kv, link.userId)
    : await setPaused(deps.kv, link.userId, state === "off");
  const summary = settingsSummary(settings, {
    change: "switch them on the console's account page; /gh notify state:off pauses all",
    resume: "Send /gh notify state:on to resume.",
  });
  return now(ephemeral(summary));
}
