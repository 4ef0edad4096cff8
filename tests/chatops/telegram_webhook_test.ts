/** `POST /telegram/webhook`: configuration, the secret header, bodies, and the answer. */
import assert from "node:assert/strict";
import { updatesHandled } from "../../lib/chatops/telegram/webhook.ts";
import { startTestApp } from "../_helpers.ts";
import {
  GROUP,
  messageUpdate,
  postUpdate,
  SECRET,
  startTelegramWorld,
  textMessage,
  textsTo,
} from "../_telegram_helpers.ts";

Deno.test("not configured: 503 with an error, before the secret is looked at", async () => {
  await using t = await startTestApp({ TELEGRAM_BOT_TOKEN: "123456:test-token" });
  const res = await postUpdate(t, messageUpdate(textMessage("/gh help")));
  assert.equal(res.status, 503);
  assert.match((await res.json()).error, /TELEGRAM_WEBHOOK_SECRET/);
});

Deno.test("a missing, wrong or oversized secret header: 401, and nothing is sent", async () => {
  await using world = await startTelegramWorld();
  const update = messageUpdate(textMessage("/gh help"));
  for (const secret of [null, "", "wrong", `${SECRET}x`, SECRET.slice(0, -1), "a".repeat(300)]) {
    const res = await postUpdate(world.t, update, secret);
    assert.equal(res.status, 401, `secret ${secret}`);
    assert.match((await res.json()).error, /Secret-Token/);
  }
  assert.equal(world.bot.calls.length, 0);
});

Deno.test("malformed JSON or a body that is no update: 400; too large: 413", async () => {
  await using world = await startTelegramWorld();
  for (const body of ["{", "not json", ""]) {
    const res = await postUpdate(world.t, body);
    assert.equal(res.status, 400, body);
    assert.equal((await res.json()).error, "Invalid JSON");
  }
  for (const body of [[], 1, null, {}, { update_id: "1" }, { update_id: -1 }, { update_id: 1.5 }]) {
    const res = await postUpdate(world.t, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.match((await res.json()).error, /Not a Telegram update/);
  }
  const large = await postUpdate(world.t, { update_id: 1, pad: "x".repeat(300 * 1024) });
  assert.equal(large.status, 413);
});

Deno.test("any well-formed update is 200, even ones chat-ops does not read", async () => {
  await using world = await startTelegramWorld();
  const odd = [
    { update_id: 10 },
    { update_id: 11, edited_message: { message_id: 1 } },
    { update_id: 12, message: { message_id: "x" } },
    { update_id: 13, message: { message_id: 1, date: 1, chat: { id: GROUP, type: "group" } } },
    { update_id: 14, callback_query: { nonsense: true } },
    messageUpdate(textMessage("just chatting")),
  ];
  for (const update of odd) {
    const res = await postUpdate(world.t, update);
    assert.equal(res.status, 200, JSON.stringify(update));
    assert.deepEqual(await res.json(), { ok: true });
  }
  assert.equal(world.bot.callsOf("sendMessage").length, 0);
});

Deno.test("/gh help answers in the same chat and topic, as a reply", async () => {
  await using world = await startTelegramWorld();
  const message = textMessage("/gh help", { threadId: 9 });
  await postUpdate(world.t, messageUpdate(message));
  const [sent] = world.bot.callsOf("sendMessage");
  assert.equal(sent.chat_id, GROUP);
  assert.equal(sent.message_thread_id, 9);
  assert.deepEqual(sent.reply_parameters, {
    message_id: message.message_id,
    allow_sending_without_reply: true,
  });
  assert.match(String(sent.text), /\/gh login/);
});

Deno.test("a repeated update is handled once", async () => {
  await using world = await startTelegramWorld();
  const update = messageUpdate(textMessage("/gh help"));
  assert.equal((await postUpdate(world.t, update)).status, 200);
  assert.equal((await postUpdate(world.t, update)).status, 200);
  assert.equal(textsTo(world.bot, GROUP).length, 1);
});

Deno.test("/gh@OtherBot is left alone; /gh@OurBot (any case) is answered", async () => {
  await using world = await startTelegramWorld();
  await postUpdate(world.t, messageUpdate(textMessage("/gh@other_bot help")));
  assert.equal(textsTo(world.bot, GROUP).length, 0);
  await postUpdate(world.t, messageUpdate(textMessage("/gh@Switchyard_Bot help")));
  assert.equal(textsTo(world.bot, GROUP).length, 1);
});

Deno.test("while getMe fails, a command naming any bot is left alone; one naming none is answered", async () => {
  await using world = await startTelegramWorld();
  world.bot.script("getMe", { status: 500, description: "Internal Server Error" });
  await postUpdate(world.t, messageUpdate(textMessage("/gh@other_bot help")));
  assert.equal(textsTo(world.bot, GROUP).length, 0);
  await postUpdate(world.t, messageUpdate(textMessage("/gh help")));
  assert.equal(textsTo(world.bot, GROUP).length, 1);
});

Deno.test("an unknown subcommand is named back, shortened, with a pointer to help", async () => {
  await using world = await startTelegramWorld();
  await postUpdate(world.t, messageUpdate(textMessage(`/gh ${"z".repeat(100)}`)));
  const [text] = textsTo(world.bot, GROUP);
  assert.equal(text, `Unknown command "${"z".repeat(32)}". Send /gh help for the commands.`);
});

Deno.test("a failing Telegram never fails the webhook", async () => {
  await using world = await startTelegramWorld();
  world.bot.script("sendMessage", { status: 500, description: "Internal Server Error" });
  const res = await postUpdate(world.t, messageUpdate(textMessage("/gh help")));
  assert.equal(res.status, 200);
  assert.ok(world.t.lines.some((line) => line.message === "telegram: answer not sent"));
});

Deno.test("slow work does not hold the answer: it goes on after the 200", async () => {
  await using world = await startTelegramWorld();
  const held = world.bot.hold("sendMessage");
  const res = await world.t.fetch("/telegram/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": SECRET },
    body: JSON.stringify(messageUpdate(textMessage("/gh help"))),
  });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { ok: true });
  await held.arrived;
  held.release();
  await updatesHandled(world.t.config);
  assert.equal(textsTo(world.bot, GROUP).length, 1);
  assert.ok(!world.t.lines.some((line) => line.level === "error"));
});
