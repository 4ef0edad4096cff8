/** Button presses on notifications: always answered, acting as the presser's linked account. */
import assert from "node:assert/strict";
import {
  mergeConfirmKeyboard,
  reactionKeyboard,
  telegramKeyboard,
} from "../../lib/format/telegram.ts";
import { subjectTag } from "../../lib/format/subject.ts";
import {
  buttonUpdate,
  GROUP,
  linkUser,
  notification,
  postUpdate,
  sendUpdate,
  startTelegramWorld,
  tagged,
  type TelegramWorld,
} from "../_telegram_helpers.ts";

const URL = "https://github.com/octo/site/pull/12";
const TAG = subjectTag("octo/site", 12);
const TAG_7 = subjectTag("octo/site", 7);
const OPEN_PR = telegramKeyboard({ kind: "pull", state: "open", url: URL, tag: TAG });

/**
 * Presses the button `data` (tagged with octo/site#`number` when it is a `gh:` button) on
 * message `messageId` showing `markup`; the press's answer.
 */
async function press(
  world: TelegramWorld,
  data: string,
  messageId: number,
  markup: unknown = OPEN_PR,
  number = 12,
): Promise<{ text: string; alert: boolean }> {
  const before = world.bot.callsOf("answerCallbackQuery").length;
  const sent = data.startsWith("gh:") ? tagged(data, "octo/site", number) : data;
  const update = buttonUpdate(sent, { messageId, markup });
  await sendUpdate(world.t, update);
  const answers = world.bot.callsOf("answerCallbackQuery");
  assert.equal(answers.length, before + 1, "answered exactly once");
  const answer = answers.at(-1)!;
  assert.equal(answer.callback_query_id, update.callback_query!.id);
  return { text: String(answer.text), alert: answer.show_alert === true };
}

function lastButtons(world: TelegramWorld) {
  return world.bot.callsOf("editMessageReplyMarkup").at(-1);
}

Deno.test("Merge asks to confirm, then merges as the presser and shows the merged buttons", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const id = await notification(world.t);
  assert.deepEqual(await press(world, "gh:merge", id), {
    text: "Choose how to merge, or Cancel.",
    alert: false,
  });
  assert.deepEqual(lastButtons(world), {
    chat_id: GROUP,
    message_id: id,
    reply_markup: mergeConfirmKeyboard(URL, TAG),
  });
  assert.deepEqual(world.github.requestsTo("/repos/"), []);

  const answer = await press(world, "gh:merge:squash", id, mergeConfirmKeyboard(URL, TAG));
  assert.deepEqual(answer, { text: "Merged octo/site#12 (squash).", alert: false });
  const [merge] = world.github.requestsTo("/repos/");
  assert.equal(merge.path, "/repos/octo/site/pulls/12/merge");
  assert.deepEqual(merge.body, { merge_method: "squash" });
  assert.equal(
    merge.headers.get("authorization"),
    world.github.requestsTo("/user")[0].headers.get("authorization"),
  );
  assert.deepEqual(
    lastButtons(world)?.reply_markup,
    telegramKeyboard({ kind: "pull", state: "merged", url: URL, tag: TAG }),
  );
});

Deno.test("Cancel goes back to the open buttons without calling GitHub", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const id = await notification(world.t);
  assert.equal((await press(world, "gh:back:o", id, mergeConfirmKeyboard(URL, TAG))).text, "");
  assert.deepEqual(lastButtons(world)?.reply_markup, OPEN_PR);
  assert.deepEqual(world.github.requestsTo("/repos/"), []);
});

Deno.test("a refused merge says why in a dialog and restores the open buttons", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const id = await notification(world.t);
  world.github.refusals.set("PUT /repos/octo/site/pulls/12/merge", {
    status: 403,
    message: "Resource not accessible by integration",
  });
  const answer = await press(world, "gh:merge:merge", id, mergeConfirmKeyboard(URL, TAG));
  assert.equal(answer.alert, true);
  assert.match(answer.text, /^GitHub says you may not merge into this repository \(403\)/);
  assert.deepEqual(lastButtons(world)?.reply_markup, OPEN_PR);
});

Deno.test("Close and Reopen switch the buttons; an issue offers no Merge", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const id = await notification(world.t, { kind: "issue", number: 7 });
  const openIssue = telegramKeyboard({ kind: "issue", state: "open", url: URL, tag: TAG_7 });
  assert.equal((await press(world, "gh:close", id, openIssue, 7)).text, "Closed octo/site#7.");
  const closed = telegramKeyboard({ kind: "issue", state: "closed", url: URL, tag: TAG_7 });
  assert.deepEqual(lastButtons(world)?.reply_markup, closed);
  assert.equal((await press(world, "gh:reopen", id, closed, 7)).text, "Reopened octo/site#7.");
  assert.deepEqual(lastButtons(world)?.reply_markup, openIssue);
  assert.deepEqual(await press(world, "gh:merge", id, openIssue, 7), {
    text: "Only pull requests merge.",
    alert: true,
  });
  assert.deepEqual(
    world.github.requestsTo("/repos/").map((r) => [r.method, r.path, r.body]),
    [
      ["PATCH", "/repos/octo/site/issues/7", { state: "closed" }],
      ["PATCH", "/repos/octo/site/issues/7", { state: "open" }],
    ],
  );
});

Deno.test("React opens the picker; a reaction is added and the buttons come back", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const id = await notification(world.t);
  const merged = telegramKeyboard({ kind: "pull", state: "merged", url: URL, tag: TAG });
  assert.equal((await press(world, "gh:react", id, merged)).text, "Pick a reaction.");
  assert.deepEqual(lastButtons(world)?.reply_markup, reactionKeyboard("merged", URL, TAG));
  const answer = await press(world, "gh:react:heart", id, reactionKeyboard("merged", URL, TAG));
  assert.equal(answer.text, "Reacted ❤️ to octo/site#12.");
  assert.deepEqual(lastButtons(world)?.reply_markup, merged);
  const [reaction] = world.github.requestsTo("/repos/");
  assert.equal(reaction.path, "/repos/octo/site/issues/12/reactions");
  assert.deepEqual(reaction.body, { content: "heart" });
});

Deno.test("an unlinked presser is refused and told how to link", async () => {
  await using world = await startTelegramWorld();
  const id = await notification(world.t);
  const refusal = {
    text: "Not linked: run /gh login first to link your GitHub account.",
    alert: true,
  };
  assert.deepEqual(await press(world, "gh:merge", id), refusal);
  assert.deepEqual(await press(world, "gh:close", id), refusal);
  assert.deepEqual(await press(world, "gh:react:+1", id), refusal);
  assert.deepEqual(world.github.requestsTo("/repos/"), []);
});

Deno.test("every press is answered: unknown data, unknown or old messages, odd payloads", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const id = await notification(world.t);
  assert.deepEqual(await press(world, "something-else", id), {
    text: "This button does nothing here.",
    alert: true,
  });
  assert.match((await press(world, "gh:close", 424242)).text, /^I do not know what that message/);

  const old = buttonUpdate("gh:close", { messageId: id });
  (old.callback_query!.message as { date: number }).date = 0;
  await sendUpdate(world.t, old);
  assert.match(
    String(world.bot.callsOf("answerCallbackQuery").at(-1)!.text),
    /too old to act on/,
  );

  const res = await postUpdate(world.t, { update_id: 99_999, callback_query: { id: "odd-1" } });
  assert.equal(res.status, 200);
  assert.deepEqual(world.bot.callsOf("answerCallbackQuery").at(-1), {
    callback_query_id: "odd-1",
    text: "This button press could not be read.",
    show_alert: true,
  });
  assert.deepEqual(world.github.requestsTo("/repos/"), []);
});

Deno.test("a press is answered even when Telegram refuses to update the buttons", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  const id = await notification(world.t);
  world.bot.script("editMessageReplyMarkup", {
    status: 400,
    description: "Bad Request: message is not modified",
  });
  assert.equal((await press(world, "gh:close", id)).text, "Closed octo/site#12.");
  assert.ok(world.t.lines.some((line) => line.message === "telegram: buttons not updated"));
});
