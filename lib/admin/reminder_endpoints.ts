/**
 * The admin API's review reminder endpoints (docs/reminders.md): a person's own reminders and a
 * group's channel reminders. Spread into `ADMIN_ENDPOINTS`, so the OpenAPI document lists them.
 */
import { z } from "zod";
import { targetSchema } from "../model/schema.ts";
import { CLOCK_TIME } from "../model/noise_rules.ts";
import {
  DAY_NAMES,
  MAX_FILTER_LABELS,
  MAX_LABEL_CHARS,
  MAX_OLDER_THAN_HOURS,
  MAX_STALE_DAYS,
  MAX_TIMES,
} from "../delivery/reminder_input.ts";
import { defineEndpoint } from "./endpoint.ts";
import { okSchema } from "./schemas.ts";

const SIGNED_IN = "any console user";

const scheduleFields = {
  days: z.array(z.enum(DAY_NAMES)).min(1).max(7).describe("weekdays it fires on"),
  times: z.array(z.string().regex(CLOCK_TIME)).min(1).max(MAX_TIMES)
    .describe("local times, HH:MM"),
  timeZone: z.string().min(1).max(64).describe("an IANA time zone, e.g. Europe/Berlin"),
  allClear: z.boolean().optional().describe(
    "say that nothing is waiting instead of sending nothing",
  ),
};

/** `POST /admin/api/me/reminders`. */
const personalReminderBodySchema = z.strictObject({
  ...scheduleFields,
  platform: z.enum(["telegram", "discord"]).optional().describe(
    "the linked chat account to send to; absent: Telegram if linked, else Discord",
  ),
});

/** Label names for the stale-work filter (only with `staleDays`). */
const labelListSchema = z.array(z.string().min(1).max(MAX_LABEL_CHARS)).max(MAX_FILTER_LABELS)
  .optional();

/** `POST /admin/api/groups/{id}/reminders`. */
const channelReminderBodySchema = z.strictObject({
  ...scheduleFields,
  olderThanHours: z.number().int().min(1).max(MAX_OLDER_THAN_HOURS).optional().describe(
    "only pull requests open for longer",
  ),
  staleDays: z.number().int().min(1).max(MAX_STALE_DAYS).optional().describe(
    "also list pull requests and issues with no activity for this many days",
  ),
  labels: labelListSchema.describe("stale work: only items with one of these labels"),
  excludeLabels: labelListSchema.describe("stale work: leave out items with any of these labels"),
  target: targetSchema.describe("one of the group's allowed targets"),
});

/** A reminder as listed. */
const reminderSchema = z.object({
  id: z.string(),
  scope: z.enum(["personal", "channel"]),
  groupId: z.string().optional(),
  days: z.array(z.string()),
  times: z.array(z.string()),
  timeZone: z.string(),
  olderThanHours: z.number().optional(),
  staleDays: z.number().optional(),
  labels: z.array(z.string()).optional(),
  excludeLabels: z.array(z.string()).optional(),
  allClear: z.boolean(),
  target: targetSchema,
  nextAt: z.string().describe("when it fires next (ISO 8601)"),
});

const reminderListSchema = z.object({ reminders: z.array(reminderSchema) });

/** The reminder endpoints, by operation name. */
export const REMINDER_ENDPOINTS = {
  listMyReminders: defineEndpoint({
    method: "GET",
    path: "/admin/api/me/reminders",
    summary: "The signed-in person's review reminders",
    access: SIGNED_IN,
    response: reminderListSchema,
  }),
  addMyReminder: defineEndpoint({
    method: "POST",
    path: "/admin/api/me/reminders",
    summary: "Add a personal review reminder, sent to the private chat of the linked Telegram " +
      "account: the open pull requests waiting on the person's review, oldest first",
    access: SIGNED_IN,
    body: personalReminderBodySchema,
    response: reminderSchema,
    status: 201,
    errors: {
      "400": "bad settings, or no linked Telegram account",
      "409": "the person has the most reminders allowed",
    },
  }),
  deleteMyReminder: defineEndpoint({
    method: "DELETE",
    path: "/admin/api/me/reminders/{reminderId}",
    summary: "Remove one of the signed-in person's reminders",
    access: SIGNED_IN,
    response: okSchema,
  }),
  listGroupReminders: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/reminders",
    summary: "The group's channel review reminders",
    access: "super admin, or any member of the group",
    response: reminderListSchema,
  }),
  addGroupReminder: defineEndpoint({
    method: "POST",
    path: "/admin/api/groups/{id}/reminders",
    summary: "Add a channel review reminder: the open pull requests of the group's " +
      "repositories waiting for review, posted into one of its targets (audited)",
    access: "super admin, or an owner or admin of the group",
    body: channelReminderBodySchema,
    response: reminderSchema,
    status: 201,
    errors: {
      "400": "bad settings, or a target the group may not post into",
      "409": "the group has the most reminders allowed",
    },
  }),
  deleteGroupReminder: defineEndpoint({
    method: "DELETE",
    path: "/admin/api/groups/{id}/reminders/{reminderId}",
    summary: "Remove one of the group's reminders (audited)",
    access: "super admin, or an owner or admin of the group",
    response: okSchema,
  }),
};
