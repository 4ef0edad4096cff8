/**
 * Personal settings are private to the person (docs/personal.md): a super admin's pages and API
 * answers show none of another person's notification settings or personal reminders.
 */
import assert from "node:assert/strict";
import { saveTelegramLink } from "../../lib/store/auth/links.ts";
import { updateNotifySettings } from "../../lib/store/notify/notify_settings.ts";
import { ALPHA, PEOPLE, startAdminApp } from "../_admin_helpers.ts";

/** Time zones only the viewer's settings and reminder use, so any answer naming one leaks. */
const QUIET_ZONE = "Asia/Kathmandu";
const REMINDER_ZONE = "Pacific/Chatham";

/** What a super admin can open in the console and its API. */
const SUPER_ADMIN_VIEWS = [
  "/admin",
  "/admin/account",
  `/admin/account?userId=${PEOPLE.viewer.userId}`,
  "/admin/api/me",
  "/admin/api/me/reminders",
  `/admin/api/me/reminders?userId=${PEOPLE.viewer.userId}`,
  `/admin/groups/${ALPHA.id}`,
  `/admin/api/groups/${ALPHA.id}`,
  `/admin/api/groups/${ALPHA.id}/reminders`,
  "/admin/api/groups",
  "/admin/audit",
  "/admin/api/audit",
  "/admin/api/config/export",
  "/admin/api/metrics",
];

Deno.test("a super admin's view of another person shows none of their notification settings or reminders", async () => {
  await using app = await startAdminApp();
  const viewer = PEOPLE.viewer;
  await saveTelegramLink(app.kv, { telegramUserId: "333333", ...viewer, linkedAt: 1 });
  await updateNotifySettings(app.kv, viewer.userId, (settings) => ({
    ...settings,
    paused: true,
    quietHours: { timeZone: QUIET_ZONE, start: "21:15", end: "06:45", weekends: true },
  }));
  const created = await app.call("viewer", "POST", "/admin/api/me/reminders", {
    body: { days: ["tue"], times: ["07:35"], timeZone: REMINDER_ZONE },
  });
  assert.equal(created.status, 201);
  const reminderId: string = created.body.id;
  assert.ok(reminderId);

  // the person sees their own: the markers below are ones a leak would show
  const own = await app.call("viewer", "GET", "/admin/account");
  assert.equal(own.status, 200);
  assert.match(own.body, new RegExp(QUIET_ZONE));
  const ownReminders = await app.call("viewer", "GET", "/admin/api/me/reminders");
  assert.equal(ownReminders.body.reminders[0].timeZone, REMINDER_ZONE);

  for (const path of SUPER_ADMIN_VIEWS) {
    const answer = await app.call("superAdmin", "GET", path);
    assert.ok(answer.status < 500, `${path}: ${answer.status}`);
    const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
    for (const secret of [QUIET_ZONE, REMINDER_ZONE, reminderId, "21:15", "07:35"]) {
      assert.ok(!text.includes(secret), `${path} shows ${secret}`);
    }
  }
  const mine = await app.call("superAdmin", "GET", "/admin/api/me/reminders");
  assert.deepEqual(mine.body.reminders, []);
  const removed = await app.call("superAdmin", "DELETE", `/admin/api/me/reminders/${reminderId}`);
  assert.equal(removed.status, 404);
  assert.equal(
    (await app.call("viewer", "GET", "/admin/api/me/reminders")).body.reminders.length,
    1,
  );
});
