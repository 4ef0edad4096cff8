import { REMINDER_ENDPOINTS as E } from "@/lib/admin/reminder_endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { addGroupReminder, listGroupReminders } from "@/lib/admin/reminders.ts";
import { define } from "@/lib/state.ts";

/** A group's channel review reminders. */
export const handler = define.handlers({
  GET: apiHandler(
    E.listGroupReminders,
    ({ kv, principal, params }) => listGroupReminders(kv, principal, params.id),
  ),
  POST: apiHandler(
    E.addGroupReminder,
    ({ kv, principal, params, body }) => addGroupReminder(kv, principal, params.id, body),
  ),
});
