/**
 * Every Bot API call chat-ops makes goes through the Telegram adapter, reserved from its rate
 * limiter by its call class and observed: a command's reply is a message to the chat (it waits
 * for a 429's hold and the bot-wide limit, not the chat's spacing, and delivery's next message
 * is spaced from it), a press's `answerCallbackQuery` is an answer to a press (the bot-wide
 * limit only: it posts nothing in the chat, so a chat's hold does not stop it), `getChatMember`
 * and `getMe` are reads (the bot-wide limit only).
 * The fake bot's requests, the limiter's reservations and its observations agree.
 */
import assert from "node:assert/strict";
import { TelegramPacer } from "../../lib/telegram/pacer.ts";
import {
  buttonUpdate,
  CountingPacer,
  GROUP,
  messageUpdate,
  notification,
  sendUpdate,
  startTelegramWorld,
  tagged,
  textMessage,
  textsTo,
} from "../_telegram_helpers.ts";

/** The Bot API methods the fake received, in order. */
function methods(world: { bot: { calls: { method: string }[] } }): string[] {
  return world.bot.calls.map((call) => call.method);
}

Deno.test("a /gh command reply in a group passes through the rate limiter as a message", async () => {
  const pacer = new CountingPacer();
  await using world = await startTelegramWorld({}, { telegram: pacer });
  const before = Date.now();
  await sendUpdate(world.t, messageUpdate(textMessage("/gh help")));
  assert.deepEqual(methods(world), ["sendMessage"]);
  assert.equal(textsTo(world.bot, GROUP).length, 1, "the reply went to the group");
  assert.deepEqual(pacer.reserved, ["reply"], "the reply was reserved as a message");
  assert.deepEqual(pacer.observed, ["sent"], "its answer was observed");
  const pace = pacer.paceOf(String(GROUP));
  assert.ok(
    pace && pace.notBefore >= before + 3_000,
    "the group's next delivered message is spaced from the reply",
  );
});

Deno.test("a button press's answerCallbackQuery passes through the rate limiter as a press", async () => {
  const pacer = new CountingPacer();
  await using world = await startTelegramWorld({}, { telegram: pacer });
  const id = await notification(world.t);
  await sendUpdate(world.t, buttonUpdate(tagged("gh:merge"), { messageId: id }));
  assert.deepEqual(methods(world), ["answerCallbackQuery"], "the unlinked presser is answered");
  assert.deepEqual(pacer.reserved, ["answer"]);
  assert.deepEqual(pacer.observed, ["sent"]);
});

Deno.test("a press in a chat held by a 429 is still answered at once, and its answer holds nothing", async () => {
  const pacer = new CountingPacer();
  await using world = await startTelegramWorld({}, { telegram: pacer });
  const id = await notification(world.t);
  world.bot.script("answerCallbackQuery", {
    status: 429,
    description: "Too Many Requests: retry after 5",
    retryAfter: 5,
  });
  const paceBefore = pacer.paceOf(String(GROUP));
  await sendUpdate(world.t, buttonUpdate(tagged("gh:merge"), { messageId: id }));
  assert.deepEqual(pacer.observed.at(-1), "rate_limited", "the answer's 429 was observed");
  assert.deepEqual(pacer.paceOf(String(GROUP)), paceBefore, "and it held no chat");
  pacer.holdChat(String(GROUP), 30_000);
  await sendUpdate(world.t, buttonUpdate(tagged("gh:merge"), { messageId: id }));
  assert.deepEqual(
    methods(world),
    ["answerCallbackQuery", "answerCallbackQuery"],
    "answered at once despite the chat's hold",
  );
});

Deno.test("getMe and getChatMember pass through the rate limiter as reads", async () => {
  const pacer = new CountingPacer();
  await using world = await startTelegramWorld({}, { telegram: pacer });
  await sendUpdate(world.t, messageUpdate(textMessage("/gh@switchyard_bot subscribe team")));
  assert.deepEqual(methods(world), ["getMe", "getChatMember", "sendMessage"]);
  assert.match(textsTo(world.bot, GROUP)[0], /Only an administrator/);
  assert.deepEqual(pacer.reserved, ["read", "read", "reply"]);
  assert.deepEqual(pacer.observed, ["sent", "sent", "sent"]);
});

Deno.test("a 429 on a command reply holds the chat for its retry_after", async () => {
  const pacer = new CountingPacer();
  await using world = await startTelegramWorld({}, { telegram: pacer });
  world.bot.script("sendMessage", {
    status: 429,
    description: "Too Many Requests: retry after 30",
    retryAfter: 30,
  });
  const before = Date.now();
  await sendUpdate(world.t, messageUpdate(textMessage("/gh help")));
  assert.deepEqual(pacer.observed, ["rate_limited"], "the 429 was observed");
  const held = pacer.paceOf(String(GROUP));
  assert.ok(held && held.notBefore >= before + 30_000, "the chat's messages wait 30 s");

  await sendUpdate(world.t, messageUpdate(textMessage("/gh whoami")));
  assert.equal(world.bot.callsOf("sendMessage").length, 1, "the next reply waits for the hold");
  assert.deepEqual(pacer.reserved, ["reply"]);
  assert.ok(
    world.t.lines.some((line) => line.message === "telegram: answer not sent"),
    "the reply that waits is logged as not sent",
  );
});

Deno.test("a reply goes at once, not after a chat's spacing, and delivery's next message waits for it", () => {
  let now = 0;
  const pacer = new TelegramPacer({ now: () => now });
  assert.equal(pacer.reserve("-1", 0).granted, true, "delivery posts into the group at 0");
  now = 100;
  assert.deepEqual(pacer.reserveReply("-1", 0), { granted: true, waitMs: 0 }, "no spacing wait");
  assert.equal(pacer.paceOf("-1")?.notBefore, 3_100, "delivery's next message is 3 s after it");
  now = 200;
  assert.deepEqual(pacer.reserveReply("7", 0), { granted: true, waitMs: 0 });
  now = 300;
  assert.deepEqual(
    pacer.reserveReply("7", 0),
    { granted: true, waitMs: 0 },
    "a second command's reply in a private chat goes at once too",
  );
  assert.equal(pacer.paceOf("7")?.notBefore, 1_300, "delivery waits a second after it");
  now = 400;
  pacer.holdChat("-2", 5_000);
  assert.equal(pacer.reserveReply("-2", 4_000).granted, false, "a 429's hold stops replies");
  now = 500;
  assert.deepEqual(pacer.reserveRead(0), { granted: true, waitMs: 0 }, "a read ignores holds");
  assert.equal(pacer.reserve("-3", 0).granted, false, "the read took the bot-wide budget's slot");
});
