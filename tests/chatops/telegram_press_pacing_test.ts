/**
 * A button press's answer (the pressed message's new buttons) is a Telegram chat call like any
 * other: the adapter reserves it from the rate limiter, against the bot-wide limit only (a
 * group chat's three seconds between messages would leave a second quick press's buttons
 * stale), and the limiter observes its answer, so a 429 holds the chat for its `retry_after`.
 */
import assert from "node:assert/strict";
import { mergeConfirmKeyboard, telegramKeyboard } from "../../lib/format/telegram.ts";
import { subjectTag } from "../../lib/format/subject.ts";
import { TelegramPacer } from "../../lib/telegram/pacer.ts";
import {
  buttonUpdate,
  CountingPacer,
  GROUP,
  linkUser,
  notification,
  sendUpdate,
  startTelegramWorld,
  tagged,
  type TelegramWorld,
} from "../_telegram_helpers.ts";

const URL = "https://github.com/octo/site/pull/12";
const TAG = subjectTag("octo/site", 12);
const OPEN_PR = telegramKeyboard({ kind: "pull", state: "open", url: URL, tag: TAG });

/**
 * The app with a counting pacer, a linked presser and a notification (`id`) in the group chat;
 * the pacer's counts and `requests` (the fake bot's) start after the link's confirmation.
 */
async function pressWorld(): Promise<
  TelegramWorld & { pacer: CountingPacer; id: number; requests: () => number }
> {
  const pacer = new CountingPacer();
  const world = await startTelegramWorld({}, { telegram: pacer });
  await linkUser(world);
  pacer.reset();
  const linked = world.bot.calls.length;
  return Object.assign(world, {
    pacer,
    id: await notification(world.t),
    requests: () => world.bot.calls.length - linked,
  });
}

async function press(world: TelegramWorld, data: string, messageId: number, markup: unknown) {
  await sendUpdate(world.t, buttonUpdate(tagged(data), { messageId, markup }));
}

function buttonEdits(world: TelegramWorld) {
  return world.bot.callsOf("editMessageReplyMarkup");
}

Deno.test("a button press's edit passes through the rate limiter, without a group chat's message spacing", async () => {
  await using world = await pressWorld();
  const { pacer, id } = world;
  await press(world, "gh:merge", id, OPEN_PR);
  await press(world, "gh:back:o", id, mergeConfirmKeyboard(URL, TAG));
  const edits = buttonEdits(world);
  assert.deepEqual(
    edits.map((edit) => edit.reply_markup),
    [mergeConfirmKeyboard(URL, TAG), OPEN_PR],
    "the second quick press in the group chat changed the buttons too",
  );
  assert.equal(world.bot.callsOf("answerCallbackQuery").length, 2, "both presses were answered");
  assert.deepEqual(
    pacer.reserved,
    ["press", "answer", "press", "answer"],
    "every call was reserved: each press's edit, then its answer",
  );
  assert.equal(pacer.reserved.length, world.requests());
  assert.deepEqual(pacer.observed, ["sent", "sent", "sent", "sent"], "every answer was observed");
});

Deno.test("a 429 on a press's edit holds the chat for its retry_after", async () => {
  await using world = await pressWorld();
  const { pacer, id } = world;
  world.bot.script("editMessageReplyMarkup", {
    status: 429,
    description: "Too Many Requests: retry after 30",
    retryAfter: 30,
  });
  const before = Date.now();
  await press(world, "gh:merge", id, OPEN_PR);
  assert.deepEqual(pacer.observed, ["rate_limited", "sent"], "the 429 was observed");
  assert.equal(world.requests(), 2, "the edit, then the press's answer");
  assert.equal(
    world.bot.callsOf("answerCallbackQuery").length,
    1,
    "the press is still answered: its answer posts nothing in the held chat",
  );
  const held = pacer.paceOf(String(GROUP));
  assert.ok(held && held.notBefore >= before + 30_000, "the chat's messages wait 30 s");
  assert.equal(pacer.reserve(String(GROUP), 1_000).granted, false, "no message goes sooner");

  await press(world, "gh:merge", id, OPEN_PR);
  assert.equal(buttonEdits(world).length, 1, "the next press's edit waits for the hold too");
  assert.deepEqual(pacer.reserved, ["press", "answer", "answer"]);
});

Deno.test("a refused press edit is observed like any other answer", async () => {
  await using world = await pressWorld();
  const { pacer, id } = world;
  world.bot.script("editMessageReplyMarkup", {
    status: 403,
    description: "Forbidden: bot was kicked from the supergroup chat",
  });
  await press(world, "gh:merge", id, OPEN_PR);
  assert.equal(buttonEdits(world).length, 1);
  assert.deepEqual(pacer.observed, ["rejected", "sent"], "the edit's and the press answer's");
  assert.ok(
    world.t.lines.some((line) => line.message === "telegram: buttons not updated"),
    "the refusal was logged",
  );
});

Deno.test("a press reservation takes the bot-wide budget and waits out a hold, not a chat's message spacing", () => {
  let now = 0;
  const pacer = new TelegramPacer({ now: () => now });
  assert.equal(pacer.reserve("-1", 0).granted, true);
  assert.equal(pacer.reserve("-1", 2_000).granted, false, "a group chat's next message waits 3 s");
  now = 100;
  assert.deepEqual(pacer.reservePress("-1", 0), { granted: true, waitMs: 0 });
  assert.equal(pacer.reserve("-2", 0).granted, false, "the press took the bot-wide budget's slot");
  pacer.holdChat("-1", 5_000);
  assert.equal(pacer.reservePress("-1", 4_000).granted, false, "a 429's hold stops presses too");
  assert.deepEqual(pacer.reservePress("-1", 5_000), { granted: true, waitMs: 5_000 });
});
