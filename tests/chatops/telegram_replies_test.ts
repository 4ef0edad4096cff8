/** Commands given as replies to a notification, acting on GitHub as the linked user. */
import assert from "node:assert/strict";
import type { Message } from "@grammyjs/types";
import {
  ALICE,
  GROUP,
  linkUser,
  messageUpdate,
  notification,
  sendUpdate,
  startTelegramWorld,
  type TelegramWorld,
  textMessage,
  textsTo,
} from "../_telegram_helpers.ts";

/** Sends `text` as Alice's reply to the notification `messageId`; the bot's answer. */
async function replyWith(
  world: TelegramWorld,
  text: string,
  messageId: number,
  options: { threadId?: number } = {},
): Promise<string> {
  const before = textsTo(world.bot, GROUP).length;
  await sendUpdate(world.t, messageUpdate(textMessage(text, { replyTo: messageId, ...options })));
  const texts = textsTo(world.bot, GROUP);
  assert.equal(texts.length, before + 1, "one answer in the chat");
  return texts.at(-1)!;
}

/** The token Alice's sign-in used (what GitHub saw on `GET /user`). */
function aliceToken(world: TelegramWorld): string | null {
  return world.github.requestsTo("/user")[0]?.headers.get("authorization") ?? null;
}

function actionRequests(world: TelegramWorld) {
  return world.github.requestsTo("/repos/");
}

Deno.test("/gh comment as a reply comments as the linked user and answers in the topic", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const id = await notification(world.t);
  const command = textMessage("/gh comment Looks good,\nship it", { replyTo: id, threadId: 4 });
  await sendUpdate(world.t, messageUpdate(command));
  const [request] = actionRequests(world);
  assert.equal(request.method, "POST");
  assert.equal(request.path, "/repos/octo/site/issues/12/comments");
  assert.deepEqual(request.body, { body: "Looks good,\nship it" });
  assert.ok(aliceToken(world));
  assert.equal(request.headers.get("authorization"), aliceToken(world));
  const answer = world.bot.callsOf("sendMessage").at(-1)!;
  assert.equal(answer.chat_id, GROUP);
  assert.equal(answer.message_thread_id, 4);
  assert.deepEqual(answer.reply_parameters, {
    message_id: command.message_id,
    allow_sending_without_reply: true,
  });
  assert.match(String(answer.text), /^Commented on octo\/site#12: https:\/\/github\.com\//);
});

Deno.test("/gh merge, close, reopen and react reach GitHub with the right requests", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const id = await notification(world.t);
  assert.equal(await replyWith(world, "/gh merge squash", id), "Merged octo/site#12 (squash).");
  assert.equal(await replyWith(world, "/gh@switchyard_bot merge", id), "Merged octo/site#12.");
  assert.equal(await replyWith(world, "/gh close", id), "Closed octo/site#12.");
  assert.equal(await replyWith(world, "/gh reopen", id), "Reopened octo/site#12.");
  assert.equal(await replyWith(world, "/gh react 🚀", id), "Reacted 🚀 to octo/site#12.");
  assert.deepEqual(
    actionRequests(world).map((r) => [r.method, r.path, r.body]),
    [
      ["PUT", "/repos/octo/site/pulls/12/merge", { merge_method: "squash" }],
      ["PUT", "/repos/octo/site/pulls/12/merge", {}],
      ["PATCH", "/repos/octo/site/issues/12", { state: "closed" }],
      ["PATCH", "/repos/octo/site/issues/12", { state: "open" }],
      ["POST", "/repos/octo/site/issues/12/reactions", { content: "rocket" }],
    ],
  );
  for (const request of actionRequests(world)) {
    assert.equal(request.headers.get("authorization"), aliceToken(world));
  }
});

Deno.test("GitHub's refusal is answered in plain words", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const id = await notification(world.t);
  world.github.refusals.set("PUT /repos/octo/site/pulls/12/merge", {
    status: 405,
    message: "Pull Request is not mergeable",
  });
  assert.equal(
    await replyWith(world, "/gh merge", id),
    "GitHub says octo/site#12 cannot be merged (405): Pull Request is not mergeable.",
  );
});

Deno.test("refusals before GitHub: not a reply, unknown message, unlinked, bad arguments", async () => {
  await using world = await startTelegramWorld();
  const id = await notification(world.t);
  const issue = await notification(world.t, { kind: "issue", number: 7 });
  await sendUpdate(world.t, messageUpdate(textMessage("/gh close")));
  assert.equal(
    textsTo(world.bot, GROUP).at(-1),
    "Reply to a notification with /gh close, or name what to act on: /gh close owner/repo#123.",
  );
  assert.match(await replyWith(world, "/gh close", 1), /^I do not know what that message is about/);
  assert.equal(
    await replyWith(world, "/gh close", id),
    "Not linked: run /gh login first to link your GitHub account.",
  );
  await linkUser(world);
  assert.equal(await replyWith(world, "/gh comment", id), "Write the comment after /gh comment.");
  assert.equal(await replyWith(world, "/gh merge ff", id), "Merge methods: merge, squash, rebase.");
  assert.match(await replyWith(world, "/gh react 💩", id), /^React with one of: \+1 👍, /);
  assert.equal(
    await replyWith(world, "/gh merge", issue),
    "octo/site#7 is an issue; only pull requests merge.",
  );
  assert.deepEqual(actionRequests(world), []);
});

Deno.test("a notification a route sends to @username is found from the chat's name", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const id = await notification(world.t, {}, "@teamchat");
  const message = textMessage("/gh close", { replyTo: id });
  (message.chat as Message["chat"] & { username?: string }).username = "teamchat";
  await sendUpdate(world.t, messageUpdate(message));
  assert.equal(textsTo(world.bot, GROUP).at(-1), "Closed octo/site#12.");
});

Deno.test("another chat's reply to the same message id finds nothing", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const id = await notification(world.t, {}, -100999);
  assert.match(await replyWith(world, "/gh close", id), /^I do not know what that message/);
  assert.deepEqual(actionRequests(world), []);
  assert.equal(textsTo(world.bot, ALICE).length, 2, "only the sign-in link and confirmation");
});

Deno.test("outside a reply, a ref or GitHub address named first says what to act on", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  await sendUpdate(world.t, messageUpdate(textMessage("/gh close octo/site#3")));
  assert.equal(textsTo(world.bot, GROUP).at(-1), "Closed octo/site#3.");
  await sendUpdate(
    world.t,
    messageUpdate(
      textMessage("/gh comment https://github.com/octo/site/pull/3 Thanks!\nMore soon"),
    ),
  );
  assert.match(textsTo(world.bot, GROUP).at(-1)!, /^Commented on octo\/site#3: /);
  await sendUpdate(
    world.t,
    messageUpdate(textMessage("/gh merge https://github.com/octo/site/issues/4 squash")),
  );
  assert.equal(
    textsTo(world.bot, GROUP).at(-1),
    "octo/site#4 is an issue; only pull requests merge.",
  );
  const id = await notification(world.t);
  assert.equal(
    await replyWith(world, "/gh comment octo/other#1 is related", id).then((t) => t.split(":")[0]),
    "Commented on octo/site#12",
  );
  assert.deepEqual(
    actionRequests(world).map((r) => [r.method, r.path, r.body]),
    [
      ["PATCH", "/repos/octo/site/issues/3", { state: "closed" }],
      ["POST", "/repos/octo/site/issues/3/comments", { body: "Thanks!\nMore soon" }],
      ["POST", "/repos/octo/site/issues/12/comments", { body: "octo/other#1 is related" }],
    ],
  );
});
