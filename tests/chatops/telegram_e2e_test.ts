/**
 * End to end on Telegram: a pull request webhook is delivered with its buttons, the sent
 * message is remembered, and a linked user merges and comments from the chat.
 */
import assert from "node:assert/strict";
import { subjectTag } from "../../lib/format/subject.ts";
import { telegramKeyboard } from "../../lib/format/telegram.ts";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import { getMessageRef } from "../../lib/store/delivery/message_refs.ts";
import { runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";
import { fixture, githubRequest, SECRETS } from "../_ingest_helpers.ts";
import {
  buttonUpdate,
  GROUP,
  linkUser,
  messageUpdate,
  sendUpdate,
  startTelegramWorld,
  textMessage,
  textsTo,
} from "../_telegram_helpers.ts";

Deno.test("a delivered pull request notification carries buttons that merge it as the presser", async () => {
  await using world = await startTelegramWorld({ GITHUB_WEBHOOK_SECRET: SECRETS.github[0] });
  await storeRoutes(world.t.kv, [{
    id: "prs",
    name: "Pull requests",
    enabled: true,
    groupId: "acme",
    filters: [{ type: "event", value: "pull_request.opened" }],
    targets: [{ platform: "telegram", chatId: String(GROUP), topicId: 9 }],
  }]);
  const group = await getGroup(world.t.kv, "acme");
  await putGroup(world.t.kv, { ...group!, owners: ["codertocat"] });
  await using _worker = runWorker(world.t.kv, world.t.config);

  const body = await fixture("pull_request/opened.payload.json");
  const payload = JSON.parse(new TextDecoder().decode(body));
  const res = await world.t.app.fetch(await githubRequest(body, { delivery: "tg-e2e-1" }));
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const [log] = await settled(world.t.kv, "tg-e2e-1");
  assert.equal(log.status, "ok");

  const [sent] = world.bot.callsOf("sendMessage");
  assert.equal(sent.chat_id, String(GROUP));
  assert.equal(sent.message_thread_id, 9);
  const keyboard = telegramKeyboard({
    kind: "pull",
    state: "open",
    url: payload.pull_request.html_url,
    tag: subjectTag("Codertocat/Hello-World", 2),
  });
  assert.deepEqual(sent.reply_markup, keyboard);

  const messageId = Number(log.messageId);
  const place = { platform: "telegram" as const, chatId: String(GROUP), messageId: log.messageId! };
  const ref = await getMessageRef(world.t.kv, place);
  assert.deepEqual(ref?.subject, {
    repository: "Codertocat/Hello-World",
    kind: "pull",
    number: 2,
    routeId: "prs",
    groupId: "acme",
    groupInternalId: (await readGroupEntry(world.t.kv, "acme")).entry?.internalId,
  });

  await linkUser(world);
  await sendUpdate(
    world.t,
    buttonUpdate(`gh:merge:rebase#${subjectTag("Codertocat/Hello-World", 2)}`, {
      messageId,
      markup: keyboard,
    }),
  );
  assert.equal(
    world.bot.callsOf("answerCallbackQuery").at(-1)?.text,
    "Merged Codertocat/Hello-World#2 (rebase).",
  );
  await sendUpdate(
    world.t,
    messageUpdate(textMessage("/gh comment Merged from Telegram", { replyTo: messageId })),
  );
  assert.match(textsTo(world.bot, GROUP).at(-1)!, /^Commented on Codertocat\/Hello-World#2/);
  assert.deepEqual(
    world.github.requestsTo("/repos/").map((r) => [r.method, r.path, r.body]),
    [
      ["PUT", "/repos/Codertocat/Hello-World/pulls/2/merge", { merge_method: "rebase" }],
      ["POST", "/repos/Codertocat/Hello-World/issues/2/comments", {
        body: "Merged from Telegram",
      }],
    ],
  );
});
