/**
 * Chat-ops for CI on Telegram, against the fake bot and GitHub: a run card's buttons re-run
 * and cancel as the presser; Approve (a press) and Reject with a comment (a reply) review the
 * deployment as the person and turn the card's buttons into a link saying who decided; GitHub's
 * refusal is shown; `/gh issue` as a reply opens the issue with the message as its body and a
 * link back to it.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { subjectTag } from "../../lib/format/subject.ts";
import { telegramReviewedKeyboard, telegramRunKeyboard } from "../../lib/format/run_buttons.ts";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import { saveMessageRef } from "../../lib/store/delivery/message_refs.ts";
import { runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";
import { fixture, githubRequest, SECRETS } from "../_ingest_helpers.ts";
import { ciRoute, deploymentStatusOf } from "../_ci_helpers.ts";
import {
  ALICE_GITHUB,
  buttonUpdate,
  GROUP,
  linkUser,
  messageUpdate,
  sendUpdate,
  startTelegramWorld,
  type TelegramWorld,
  textMessage,
  textsTo,
} from "../_telegram_helpers.ts";

let nextCard = 50_000;

/** Records a card in the group about run `runId` of octo/site; its message id. */
async function card(
  kv: Kv,
  kind: "run" | "deployment",
  runId: number,
): Promise<number> {
  if (!(await getGroup(kv, "team"))) {
    await putGroup(kv, { id: "team", name: "team", members: [], owners: ["octo"] });
  }
  const messageId = ++nextCard;
  await saveMessageRef(kv, {
    platform: "telegram",
    chatId: String(GROUP),
    messageId: String(messageId),
  }, {
    repository: "octo/site",
    kind,
    number: runId,
    ...(kind === "deployment" ? { environment: "production" } : {}),
    routeId: "ci",
    groupId: "team",
  });
  return messageId;
}

async function press(
  world: TelegramWorld,
  data: string,
  messageId: number,
): Promise<{ text: string; alert: boolean }> {
  await sendUpdate(world.t, buttonUpdate(data, { messageId }));
  const answer = world.bot.callsOf("answerCallbackQuery").at(-1)!;
  return { text: String(answer.text), alert: answer.show_alert === true };
}

Deno.test("Telegram: a run card's buttons re-run failed jobs, re-run all and cancel as the presser", async () => {
  await using world = await startTelegramWorld();
  const id = await card(world.t.kv, "run", 555);
  const tag = subjectTag("octo/site", 555);
  assert.deepEqual(await press(world, `gh:rerun#${tag}`, id), {
    text: "Not linked: run /gh login first to link your GitHub account.",
    alert: true,
  });
  await linkUser(world);
  assert.deepEqual(await press(world, `gh:rerun-failed#${tag}`, id), {
    text: "Re-running the failed jobs of octo/site run 555.",
    alert: false,
  });
  assert.deepEqual(await press(world, `gh:rerun#${tag}`, id), {
    text: "Re-running octo/site run 555.",
    alert: false,
  });
  assert.deepEqual(await press(world, `gh:run-cancel#${tag}`, id), {
    text: "Cancelling octo/site run 555.",
    alert: false,
  });
  const calls = world.github.requestsTo("/repos/");
  assert.deepEqual(calls.map((call) => call.path), [
    "/repos/octo/site/actions/runs/555/rerun-failed-jobs",
    "/repos/octo/site/actions/runs/555/rerun",
    "/repos/octo/site/actions/runs/555/cancel",
  ]);
  const token = world.github.requestsTo("/user")[0].headers.get("authorization");
  assert.ok(calls.every((call) => call.headers.get("authorization") === token));

  world.github.refusals.set("POST /repos/octo/site/actions/runs/555/rerun", {
    status: 403,
    message: "Must have admin rights to Repository.",
  });
  assert.deepEqual(await press(world, `gh:rerun#${tag}`, id), {
    text: "GitHub says you may not re-run octo/site run 555 (403): Must have admin rights to " +
      "Repository.",
    alert: true,
  });
  assert.deepEqual(await press(world, `gh:rerun#${subjectTag("octo/site", 556)}`, id), {
    text: "This button does not name octo/site run 555; nothing was done.",
    alert: true,
  });
});

Deno.test("Telegram: Approve by a press and Reject with a comment by a reply review as the person and mark the card", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  world.github.pendingDeployments.set(900, [{ environment: { id: 31, name: "production" } }]);
  const id = await card(world.t.kv, "deployment", 900);
  const tag = subjectTag("octo/site", 900);
  assert.deepEqual(await press(world, `gh:approve#${tag}`, id), {
    text: "Deployment to production approved by alice-gh.",
    alert: false,
  });
  const review = world.github.requestsTo("/repos/").at(-1)!;
  assert.deepEqual([review.method, review.path, review.body], [
    "POST",
    "/repos/octo/site/actions/runs/900/pending_deployments",
    { environment_ids: [31], state: "approved", comment: "Approved from the chat." },
  ]);
  assert.deepEqual(world.bot.callsOf("editMessageReplyMarkup").at(-1), {
    chat_id: GROUP,
    message_id: id,
    reply_markup: telegramReviewedKeyboard(
      `✅ Approved by ${ALICE_GITHUB.login}`,
      "https://github.com/octo/site/actions/runs/900",
    ),
  });

  const second = await card(world.t.kv, "deployment", 901);
  world.github.pendingDeployments.set(901, [{ environment: { id: 32, name: "production" } }]);
  await sendUpdate(
    world.t,
    messageUpdate(textMessage("/gh reject Not on a Friday", { replyTo: second })),
  );
  assert.equal(
    textsTo(world.bot, GROUP).at(-1),
    "Deployment to production rejected by alice-gh: Not on a Friday",
  );
  assert.deepEqual(world.github.requestsTo("/repos/").at(-1)!.body, {
    environment_ids: [32],
    state: "rejected",
    comment: "Not on a Friday",
  });
  assert.equal(
    world.bot.callsOf("editMessageReplyMarkup").at(-1)?.message_id,
    second,
  );

  const third = await card(world.t.kv, "deployment", 902);
  world.github.pendingDeployments.set(902, [{ environment: { id: 33, name: "production" } }]);
  world.github.refusals.set("POST /repos/octo/site/actions/runs/902/pending_deployments", {
    status: 422,
    message: "Not a required reviewer of this environment.",
  });
  const edits = world.bot.callsOf("editMessageReplyMarkup").length;
  assert.deepEqual(await press(world, `gh:reject#${subjectTag("octo/site", 902)}`, third), {
    text: "GitHub refused to reject the deployment of octo/site run 902 (422): Not a required " +
      "reviewer of this environment.",
    alert: true,
  });
  assert.equal(world.bot.callsOf("editMessageReplyMarkup").length, edits, "the card is unchanged");

  await sendUpdate(world.t, messageUpdate(textMessage("/gh approve", { replyTo: 1 })));
  assert.equal(
    textsTo(world.bot, GROUP).at(-1),
    "Reply to a deployment waiting for review with /gh approve [comment].",
  );
  assert.deepEqual(
    telegramRunKeyboard({
      kind: "deployment",
      tag,
      url: "https://github.com/octo/site/actions/runs/900",
    }),
    {
      inline_keyboard: [[
        { text: "Approve", callback_data: `gh:approve#${tag}` },
        { text: "Reject", callback_data: `gh:reject#${tag}` },
        { text: "Open", url: "https://github.com/octo/site/actions/runs/900" },
      ]],
    },
  );
});

Deno.test("Telegram: /gh issue as a reply opens the issue with the message as its body and a link back", async () => {
  await using world = await startTelegramWorld();
  await putGroup(world.t.kv, { id: "team", name: "team", members: [], owners: ["octo"] });
  await linkUser(world);
  const asked = textMessage("The nightly build fails on ARM.");
  await sendUpdate(world.t, messageUpdate(asked));
  const command = textMessage("/gh issue octo/site Nightly build fails on ARM", {
    replyTo: asked.message_id,
  });
  (command.reply_to_message as { text?: string }).text = "The nightly build fails on ARM.";
  await sendUpdate(world.t, messageUpdate(command));
  const [call] = world.github.requestsTo("/repos/");
  assert.deepEqual([call.method, call.path, call.body], [
    "POST",
    "/repos/octo/site/issues",
    {
      title: "Nightly build fails on ARM",
      body:
        `The nightly build fails on ARM.\n\nFrom Telegram: https://t.me/c/1234/${asked.message_id}`,
    },
  ]);
  assert.equal(
    call.headers.get("authorization"),
    world.github.requestsTo("/user")[0].headers.get("authorization"),
  );
  assert.match(
    textsTo(world.bot, GROUP).at(-1) ?? "",
    /^Opened octo\/site#\d+: https:\/\/github\.com\/octo\/site\/issues\/\d+$/,
  );

  await sendUpdate(world.t, messageUpdate(textMessage("/gh issue octo/site")));
  assert.match(
    textsTo(world.bot, GROUP).at(-1) ?? "",
    /^Open an issue with \/gh issue owner\/repo Title/,
  );
  assert.equal(world.github.requestsTo("/repos/").length, 1);
});

const DEPLOY_RUN = 5453085689;
const CHAT = { platform: "telegram", chatId: String(GROUP) } as const;

for (
  const [state, line] of [
    ["success", "Deployed to TST ✓ at 2026-11-27 09:30 UTC"],
    ["error", "Deployment to TST failed at 2026-11-27 09:30 UTC"],
  ] as const
) {
  Deno.test(`Telegram: after approval, a deployment status (${state}) edits the review card with who approved and the outcome`, async () => {
    await using world = await startTelegramWorld({ GITHUB_WEBHOOK_SECRET: SECRETS.github[0] });
    await storeRoutes(world.t.kv, [
      ciRoute("deployment_review", CHAT),
      ciRoute("deployment_status", CHAT),
    ]);
    const group = await getGroup(world.t.kv, "acme");
    await putGroup(world.t.kv, { ...group!, owners: ["terraform-test-github"] });
    await linkUser(world);
    await using _worker = runWorker(world.t.kv, world.t.config);
    const review = await fixture("deployment_review/requested.payload.json");
    await world.t.app.fetch(
      await githubRequest(review, { event: "deployment_review", delivery: "tg-review" }),
    );
    const [posted] = await settled(world.t.kv, "tg-review");
    assert.equal(posted.status, "ok");
    const cardId = Number(posted.messageId);
    const [sent] = world.bot.callsOf("sendMessage").filter((call) =>
      call.chat_id === String(GROUP)
    );
    world.github.pendingDeployments.set(DEPLOY_RUN, [{ environment: { id: 9, name: "TST" } }]);
    const tag = subjectTag("terraform-test-github/sample-app", DEPLOY_RUN);
    assert.equal((await press(world, `gh:approve#${tag}`, cardId)).alert, false);

    await world.t.app.fetch(
      await githubRequest(await deploymentStatusOf(state), {
        event: "deployment_status",
        delivery: `tg-status-${state}`,
      }),
    );
    assert.equal((await settled(world.t.kv, `tg-status-${state}`))[0].status, "ok");
    const edit = world.bot.callsOf("editMessageText").find((call) => call.message_id === cardId);
    assert.ok(edit, "the review card is edited");
    assert.equal(
      edit.text,
      `${sent.text}\n\n✅ Approved by ${ALICE_GITHUB.login}\n<b>${line}</b>`,
    );
    const markup = edit.reply_markup as { inline_keyboard: { text: string }[][] };
    assert.deepEqual(markup.inline_keyboard.flat().map((button) => button.text), ["Open"]);
  });
}
