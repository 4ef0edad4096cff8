import { REMINDER_ENDPOINTS as E } from "@/lib/admin/reminder_endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { addMyReminder, listMyReminders } from "@/lib/admin/reminders.ts";
import { define } from "@/lib/state.ts";

/** The signed-in person's review reminders. */
export const handler = define.handlers({
  GET: apiHandler(E.listMyReminders, ({ kv, principal }) => listMyReminders(kv, principal)),
  POST: apiHandler(
    E.addMyReminder,
    ({ kv, principal, body }) => addMyReminder(kv, principal, body),
  ),
});
