/**
 * The console pages' reminder forms (the account page and a group's page post to
 * `/admin/reminders`): add or remove a personal reminder, or a group's channel reminder. The
 * form's fields become the same settings the JSON API takes, checked the same way; a refusal is
 * an `HttpError` with its status and reason, a success the page to go back to.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { HttpError } from "../fresh/mod.ts";
import { requireId } from "../http_guards.ts";
import type { Target } from "../types.ts";
import {
  addGroupReminder,
  addMyReminder,
  deleteGroupReminder,
  deleteMyReminder,
  type ReminderBody,
} from "./reminders.ts";

const MAX_FIELD = 200;

function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.slice(0, MAX_FIELD).trim() : "";
}

/** Comma-separated label names. */
function labelsOf(value: string): string[] {
  return value.split(",").map((label) => label.trim()).filter(Boolean);
}

/** The settings in a reminder form. */
function bodyOf(form: FormData, channel: boolean): ReminderBody {
  const body: ReminderBody = {
    days: form.getAll("days").slice(0, 8).map(String),
    times: field(form, "times").split(",").map((time) => time.trim()).filter(Boolean),
    timeZone: field(form, "timeZone"),
    allClear: form.get("allClear") === "on",
  };
  const older = field(form, "olderThanHours");
  if (channel && older !== "") body.olderThanHours = Number(older);
  const stale = field(form, "staleDays");
  if (channel && stale !== "") {
    body.staleDays = Number(stale);
    const labels = labelsOf(field(form, "labels"));
    const excludeLabels = labelsOf(field(form, "excludeLabels"));
    if (labels.length > 0) body.labels = labels;
    if (excludeLabels.length > 0) body.excludeLabels = excludeLabels;
  }
  const platform = field(form, "platform");
  if (!channel && platform !== "") body.platform = platform;
  return body;
}

/** A target as the form names it: `discord:<channel id>` or `telegram:<chat id>`. */
function targetOf(value: string): Target {
  const match = value.match(/^(discord|telegram):(-?[0-9]{1,20})$/);
  if (!match) throw new HttpError(400, "target: choose one of the group's chat targets");
  return match[1] === "discord"
    ? { platform: "discord", channelId: match[2] }
    : { platform: "telegram", chatId: match[2] };
}

/** Runs a reminder form; answers where to go back to. */
export async function submitReminderForm(
  kv: Kv,
  principal: Principal,
  form: FormData,
): Promise<string> {
  const intent = field(form, "intent");
  if (intent === "add-personal") {
    await addMyReminder(kv, principal, bodyOf(form, false));
    return "/admin/account?done=reminder-added";
  }
  if (intent === "delete-personal") {
    await deleteMyReminder(kv, principal, requireId("reminder", field(form, "id"), "id"));
    return "/admin/account?done=reminder-removed";
  }
  const groupId = requireId("group", field(form, "group"), "group");
  const back = `/admin/groups/${encodeURIComponent(groupId)}`;
  if (intent === "add-group") {
    const target = targetOf(field(form, "target"));
    await addGroupReminder(kv, principal, groupId, { ...bodyOf(form, true), target });
    return `${back}?notice=reminder-added`;
  }
  if (intent === "delete-group") {
    const id = requireId("reminder", field(form, "id"), "id");
    await deleteGroupReminder(kv, principal, groupId, id);
    return `${back}?notice=reminder-removed`;
  }
  throw new HttpError(400, "intent: not a reminder form");
}
