/**
 * The buttons of a workflow run's notification and of a deployment waiting for review, on
 * Discord (`custom_id`) and Telegram (`callback_data`): a failed run offers "Re-run failed
 * jobs" and "Re-run all", a queued or running one "Cancel", a deployment waiting for review
 * "Approve" and "Reject"; each with a link to the run on GitHub. Every id ends in `#<tag>` of
 * the run, as the pull request and issue buttons do.
 */
import type { APIActionRowComponent, APIComponentInMessageActionRow } from "discord-api-types/v10";
import type { InlineKeyboardButton, InlineKeyboardMarkup } from "@grammyjs/types";
import { ButtonStyle, ComponentType } from "./discord_values.ts";
import { safeUrl } from "./text.ts";

/** Where a run stands, for its buttons. */
export type RunState = "failed" | "running" | "done";

/** What the buttons of a run's or a deployment review's notification offer. */
export type RunActions =
  | { kind: "run"; state: RunState; url?: string; tag?: string }
  | { kind: "deployment"; url?: string; tag?: string };

/** The ids the buttons carry (before `#<tag>`), the same on both platforms. */
export const RUN_ACTION_IDS = {
  rerunFailed: "gh:rerun-failed",
  rerunAll: "gh:rerun",
  cancel: "gh:run-cancel",
  approve: "gh:approve",
  reject: "gh:reject",
} as const;

/** One of the run buttons' ids. */
export type RunActionId = typeof RUN_ACTION_IDS[keyof typeof RUN_ACTION_IDS];

const IDS: ReadonlySet<string> = new Set(Object.values(RUN_ACTION_IDS));
const TAG = /^[0-9a-z]{1,13}$/;
const MAX_URL = 512;

/** Whether `id` (its tag aside) is one of the run buttons. */
export function isRunActionId(id: string): id is RunActionId {
  return IDS.has(id);
}

/** The id and the tag of a run button's data, or null when it is not one. */
export function parseRunButton(data: string): { id: RunActionId; tag?: string } | null {
  if (data.length > 64) return null;
  const hash = data.indexOf("#");
  const id = hash < 0 ? data : data.slice(0, hash);
  const tag = hash < 0 ? undefined : data.slice(hash + 1);
  if (!isRunActionId(id) || (tag !== undefined && !TAG.test(tag))) return null;
  return tag === undefined ? { id } : { id, tag };
}

/** The buttons `actions` offers, as labels and ids. */
function buttonsOf(actions: RunActions): { id: RunActionId; label: string; danger: boolean }[] {
  if (actions.kind === "deployment") {
    return [
      { id: RUN_ACTION_IDS.approve, label: "Approve", danger: false },
      { id: RUN_ACTION_IDS.reject, label: "Reject", danger: true },
    ];
  }
  switch (actions.state) {
    case "failed":
      return [
        { id: RUN_ACTION_IDS.rerunFailed, label: "Re-run failed jobs", danger: false },
        { id: RUN_ACTION_IDS.rerunAll, label: "Re-run all", danger: false },
      ];
    case "running":
      return [{ id: RUN_ACTION_IDS.cancel, label: "Cancel", danger: true }];
    case "done":
      return [];
  }
}

function tagged(id: string, tag: string | undefined): string {
  return tag && TAG.test(tag) ? `${id}#${tag}` : id;
}

function linkOf(actions: RunActions): string | undefined {
  const url = actions.url;
  return url && url.length <= MAX_URL && safeUrl(url) ? url : undefined;
}

/**
 * The Discord rows of a run's notification: its buttons and a link to GitHub. An empty list
 * when there is nothing to offer, so an edit clears the buttons of an earlier state.
 */
export function discordRunRows(
  actions: RunActions,
): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  const components: APIComponentInMessageActionRow[] = buttonsOf(actions).map((button) => ({
    type: ComponentType.Button,
    custom_id: tagged(button.id, actions.tag),
    label: button.label,
    style: button.danger ? ButtonStyle.Danger : ButtonStyle.Primary,
  }));
  const url = linkOf(actions);
  if (url) {
    components.push({
      type: ComponentType.Button,
      style: ButtonStyle.Link,
      label: "Open on GitHub",
      url,
    });
  }
  return components.length > 0 ? [{ type: ComponentType.ActionRow, components }] : [];
}

/** The Telegram keyboard of a run's notification: its buttons and Open. */
export function telegramRunKeyboard(actions: RunActions): InlineKeyboardMarkup {
  const row: InlineKeyboardButton[] = buttonsOf(actions).map((button) => ({
    text: button.label,
    callback_data: tagged(button.id, actions.tag),
  }));
  const url = linkOf(actions);
  if (url) row.push({ text: "Open", url });
  return { inline_keyboard: row.length > 0 ? [row] : [] };
}

/**
 * The Telegram keyboard of a reviewed deployment: one link to the run saying who decided
 * (the card keeps no buttons to press).
 */
export function telegramReviewedKeyboard(label: string, url?: string): InlineKeyboardMarkup {
  const safe = url && url.length <= MAX_URL && safeUrl(url) ? url : undefined;
  return {
    inline_keyboard: safe ? [[{ text: label.slice(0, 64), url: safe }]] : [],
  };
}
