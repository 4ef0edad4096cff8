/**
 * The controls of personal notifications (docs/personal.md): `/gh notify` in the Telegram
 * private chat lists the kinds with on/off buttons, a press switches one, `/gh notify off`
 * pauses all and `/gh notify on` resumes; the console's account page has the same switches and
 * the quiet hours; `/gh notify` on Discord pauses and resumes.
 */
import assert from "node:assert/strict";
import type { Update } from "@grammyjs/types";
import { getNotifySettings } from "../../lib/store/notify/notify_settings.ts";
import { toggleKind } from "../../lib/notify/controls.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { PEOPLE, startAdminApp } from "../_admin_helpers.ts";
import { command, GRACE, linkGrace, startDiscordApp } from "../discord_app.ts";
import {
  ALICE,
  ALICE_GITHUB,
  GROUP,
  linkUser,
  messageUpdate,
  sendUpdate,
  startTelegramWorld,
  textMessage,
  textsTo,
} from "../_telegram_helpers.ts";

const privately = (text: string) =>
  messageUpdate(textMessage(text, { chatId: ALICE, userId: ALICE }));

let nextPress = 1;

/** A press of `data` on the bot's message in Alice's private chat. */
function privatePress(data: string): Update {
  const id = 50_000 + nextPress++;
  return {
    update_id: id,
    callback_query: {
      id: `notify-${id}`,
      from: { id: ALICE, is_bot: false, first_name: "Alice" },
      chat_instance: "ci",
      data,
      message: {
        message_id: 4242,
        date: 1_700_000_000,
        chat: { id: ALICE, type: "private", first_name: "Alice" },
        text: "settings",
      },
    },
  } as unknown as Update;
}

type Button = { text: string; callback_data: string };

Deno.test("/gh notify: the kinds with on/off buttons; a press switches one; off pauses all and on resumes", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const userId = String(ALICE_GITHUB.id);

  await sendUpdate(world.t, privately("/gh notify"));
  const list = world.bot.callsOf("sendMessage").at(-1)!;
  assert.match(String(list.text), /on\s+Review requests/);
  assert.match(String(list.text), /off\s+Assignments/);
  const buttons = (list.reply_markup as { inline_keyboard: Button[][] }).inline_keyboard.flat();
  assert.deepEqual(buttons.map((b) => b.callback_data), [
    "ntf:review_requested",
    "ntf:mentioned",
    "ntf:my_pull_requests",
    "ntf:failed_checks",
    "ntf:assigned",
    "ntf:pause",
  ]);
  assert.match(buttons[0].text, /✅/);
  assert.match(buttons[4].text, /⬜/);

  await sendUpdate(world.t, privatePress("ntf:mentioned"));
  assert.equal((await getNotifySettings(world.t.kv, userId)).kinds.mentioned, false);
  const answer = world.bot.callsOf("answerCallbackQuery").at(-1)!;
  assert.equal(answer.text, "Mentions: off");
  const redrawn = world.bot.callsOf("editMessageReplyMarkup").at(-1)!;
  const row = (redrawn.reply_markup as { inline_keyboard: Button[][] }).inline_keyboard[1][0];
  assert.match(row.text, /⬜ Mentions/);

  await sendUpdate(world.t, privatePress("ntf:assigned"));
  assert.equal((await getNotifySettings(world.t.kv, userId)).kinds.assigned, true);

  await sendUpdate(world.t, privately("/gh notify off"));
  assert.equal((await getNotifySettings(world.t.kv, userId)).paused, true);
  assert.match(textsTo(world.bot, ALICE).at(-1)!, /paused/);
  await sendUpdate(world.t, privately("/gh notify on"));
  assert.equal((await getNotifySettings(world.t.kv, userId)).paused, false);
});

Deno.test("/gh notify in a group, or unlinked: told where and how, nothing changes", async () => {
  await using world = await startTelegramWorld();
  await sendUpdate(world.t, privately("/gh notify off"));
  assert.match(textsTo(world.bot, ALICE).at(-1)!, /Not linked/);
  await linkUser(world);
  await sendUpdate(world.t, messageUpdate(textMessage("/gh notify off")));
  assert.match(textsTo(world.bot, GROUP).at(-1)!, /private chat/);
  assert.equal((await getNotifySettings(world.t.kv, String(ALICE_GITHUB.id))).paused, false);
});

Deno.test("account page: the same switches and quiet hours, saved for the person; bad quiet hours are refused", async () => {
  await using app = await startAdminApp();
  const cookie = await app.cookie("owner");
  const open = async (query = "") => {
    const res = await app.t.fetch(`/admin/account${query}`, {
      headers: { cookie, accept: "text/html" },
    });
    return await res.text();
  };
  const post = async (fields: Record<string, string>) => {
    const res = await app.t.fetch("/admin/account", {
      method: "POST",
      headers: { cookie, origin: "http://localhost" },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
    await res.body?.cancel();
    return { status: res.status, location: res.headers.get("location") };
  };
  const html = await open();
  const csrf = html.match(/name="csrf_token" value="([^"]+)"/)![1];
  assert.match(html, /Personal notifications/);
  assert.match(html, /name="notify_review_requested"[^>]*checked/);
  assert.match(html, /name="notify_mentioned"[^>]*checked/);
  assert.doesNotMatch(html, /name="notify_assigned"[^>]*checked/);

  const forged = await post({ csrf_token: "forged", intent: "notify", paused: "on" });
  assert.equal(forged.status, 403);
  assert.equal((await getNotifySettings(app.kv, PEOPLE.owner.userId)).paused, false);

  const saved = await post({
    csrf_token: csrf,
    intent: "notify",
    notify_assigned: "on",
    notify_failed_checks: "on",
    quiet: "on",
    quietTimeZone: "Europe/Berlin",
    quietStart: "22:00",
    quietEnd: "07:30",
    quietWeekends: "on",
  });
  assert.deepEqual(saved, { status: 303, location: "/admin/account?done=notify_saved" });
  const settings = await getNotifySettings(app.kv, PEOPLE.owner.userId);
  assert.deepEqual(settings, {
    kinds: {
      review_requested: false,
      mentioned: false,
      my_pull_requests: false,
      failed_checks: true,
      assigned: true,
    },
    paused: false,
    quietHours: { timeZone: "Europe/Berlin", start: "22:00", end: "07:30", weekends: true },
  });
  assert.equal(
    (await getNotifySettings(app.kv, PEOPLE.viewer.userId)).kinds.assigned,
    false,
    "only the person's own settings change",
  );
  const page = await open("?done=notify_saved");
  assert.match(page, /name="notify_assigned"[^>]*checked/);
  assert.match(page, /value="Europe\/Berlin"/);

  const bad = await post({
    csrf_token: csrf,
    intent: "notify",
    quiet: "on",
    quietTimeZone: "Mars/Olympus",
    quietStart: "22:00",
    quietEnd: "07:00",
  });
  assert.equal(bad.location, "/admin/account?done=notify_invalid");
  assert.equal(
    (await getNotifySettings(app.kv, PEOPLE.owner.userId)).quietHours?.timeZone,
    "Europe/Berlin",
  );
});

Deno.test("Discord /gh notify: the settings in words; state:off pauses all, state:on resumes; unlinked is told to link", async () => {
  await using app = await startDiscordApp();
  const unlinked = await app.interact(command("notify"));
  assert.match(String((unlinked.data as { content: string }).content), /Not linked/);
  await linkGrace(app);
  const listed = await app.interact(command("notify"));
  const text = String((listed.data as { content: string }).content);
  assert.match(text, /on\s+Review requests/);
  assert.match(text, /account page/);
  await app.interact(command("notify", { state: "off" }));
  assert.equal((await getNotifySettings(app.t.kv, String(GRACE.id))).paused, true);
  const resumed = await app.interact(command("notify", { state: "on" }));
  assert.equal((await getNotifySettings(app.t.kv, String(GRACE.id))).paused, false);
  assert.equal((resumed.data as { flags: number }).flags, 64, "only the invoker sees it");
});

Deno.test("two switches of one kind made at once both count: it ends where it started", async () => {
  await using kv = await openTestKv();
  const before = (await getNotifySettings(kv, "42")).kinds.mentioned;
  await Promise.all([toggleKind(kv, "42", "mentioned"), toggleKind(kv, "42", "mentioned")]);
  assert.equal((await getNotifySettings(kv, "42")).kinds.mentioned, before);
  await toggleKind(kv, "42", "mentioned");
  assert.equal((await getNotifySettings(kv, "42")).kinds.mentioned, !before);
});
