import { REMINDER_ENDPOINTS as E } from "@/lib/admin/reminder_endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { deleteGroupReminder } from "@/lib/admin/reminders.ts";
import { define } from "@/lib/state.ts";

/** One of a group's channel review reminders. */
export const handler = define.handlers({
  DELETE: apiHandler(
    E.deleteGroupReminder,
    ({ kv, principal, params }) => deleteGroupReminder(kv, principal, params.id, params.reminderId),
  ),
});
