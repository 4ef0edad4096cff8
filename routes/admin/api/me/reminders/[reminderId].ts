import { REMINDER_ENDPOINTS as E } from "@/lib/admin/reminder_endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { deleteMyReminder } from "@/lib/admin/reminders.ts";
import { define } from "@/lib/state.ts";

/** One of the signed-in person's review reminders. */
export const handler = define.handlers({
  DELETE: apiHandler(
    E.deleteMyReminder,
    ({ kv, principal, params }) => deleteMyReminder(kv, principal, params.reminderId),
  ),
});
