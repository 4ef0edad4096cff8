/** The notification buttons: layouts by subject and state, and their callback data. */
import assert from "node:assert/strict";
import {
  type ButtonAction,
  buttonData,
  mergeConfirmKeyboard,
  parseButtonData,
  reactionKeyboard,
  renderTelegram,
  telegramKeyboard,
} from "../../lib/format/telegram.ts";

const URL = "https://github.com/octo/site/pull/12";

function labels(markup: { inline_keyboard: { text: string }[][] }): string[][] {
  return markup.inline_keyboard.map((row) => row.map((button) => button.text));
}

Deno.test("main buttons follow the subject and its state", () => {
  assert.deepEqual(labels(telegramKeyboard({ kind: "pull", state: "open", url: URL })), [
    ["Merge", "Close"],
    ["React", "Open"],
  ]);
  assert.deepEqual(labels(telegramKeyboard({ kind: "issue", state: "open", url: URL })), [
    ["Close"],
    ["React", "Open"],
  ]);
  assert.deepEqual(labels(telegramKeyboard({ kind: "pull", state: "closed" })), [
    ["Reopen"],
    ["React"],
  ]);
  assert.deepEqual(labels(telegramKeyboard({ kind: "pull", state: "merged", url: URL })), [
    ["React", "Open"],
  ]);
  const open = telegramKeyboard({ kind: "pull", state: "merged", url: URL }).inline_keyboard[0][1];
  assert.deepEqual(open, { text: "Open", url: URL });
  assert.deepEqual(
    labels(telegramKeyboard({ kind: "pull", state: "merged", url: "javascript:1" })),
    [
      ["React"],
    ],
  );
});

Deno.test("the confirmation and the reaction picker", () => {
  assert.deepEqual(labels(mergeConfirmKeyboard(URL)), [
    ["Confirm merge", "Squash", "Rebase"],
    ["Cancel", "Open"],
  ]);
  assert.deepEqual(labels(reactionKeyboard("closed")), [
    ["👍", "👎", "😄", "😕"],
    ["❤️", "🎉", "🚀", "👀"],
    ["Back"],
  ]);
  assert.deepEqual(reactionKeyboard("closed").inline_keyboard[2][0], {
    text: "Back",
    callback_data: "gh:back:c",
  });
});

Deno.test("every button's data is at most 64 bytes and reads back as its action", () => {
  const markups = [
    telegramKeyboard({ kind: "pull", state: "open", url: URL }),
    telegramKeyboard({ kind: "issue", state: "closed" }),
    mergeConfirmKeyboard(URL),
    reactionKeyboard("open", URL),
    reactionKeyboard("merged"),
  ];
  const datas = markups.flatMap((m) => m.inline_keyboard.flat())
    .flatMap((button) => "callback_data" in button ? [button.callback_data] : []);
  assert.ok(datas.length > 15);
  for (const data of datas) {
    assert.ok(new TextEncoder().encode(data).length <= 64, data);
    const action = parseButtonData(data);
    assert.ok(action, data);
    assert.equal(buttonData(action as ButtonAction), data);
  }
});

Deno.test("foreign or malformed data reads as nothing", () => {
  for (
    const data of [
      "",
      "merge",
      "gh:",
      "gh:merge:ff",
      "gh:react:poop",
      "gh:back:x",
      "gh:close:now",
      "gh:merge:squash:x",
      "gh:__proto__",
      `gh:${"x".repeat(70)}`,
    ]
  ) {
    assert.equal(parseButtonData(data), null, data);
  }
});

Deno.test("the renderer adds the buttons only when given actions", () => {
  assert.equal(renderTelegram({ title: "x" }).reply_markup, undefined);
  assert.deepEqual(
    renderTelegram({ title: "x" }, { kind: "issue", state: "open" }).reply_markup,
    telegramKeyboard({ kind: "issue", state: "open" }),
  );
});
