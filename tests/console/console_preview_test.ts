/**
 * The message preview: `POST /admin/api/preview` answers what delivery would send (the real
 * formatter's Discord body and Telegram text), and the console reads that markup back into
 * elements without ever turning payload text into markup.
 */
import assert from "node:assert/strict";
import { parseDiscordMarkdown, parseTelegramHtml } from "../../lib/console/markup.ts";
import { formatEvent, renderDiscord, renderTelegram } from "../../lib/format/mod.ts";
import { startAdminApp } from "../_admin_helpers.ts";
import { sampleJson } from "../_ingest_helpers.ts";

const PREVIEW = "/admin/api/preview";

Deno.test("preview: answers the formatter's Discord body and Telegram text for the event", async () => {
  await using app = await startAdminApp();
  const payload = await sampleJson("pull_request.opened");
  const answer = await app.call("viewer", "POST", PREVIEW, {
    body: { event: "pull_request", payload, discordRoleIds: ["42"] },
  });
  assert.equal(answer.status, 200);
  const message = formatEvent({
    id: "x",
    provider: "github",
    kind: "pull_request",
    action: "opened",
    scope: { type: "global" },
    receivedAt: Date.parse(answer.body.discord.embeds[0].timestamp),
    headers: {},
    payload,
  })!;
  assert.deepEqual(answer.body, {
    kind: "pull_request",
    action: "opened",
    discord: renderDiscord(message, { roleIds: ["42"] }),
    telegram: renderTelegram(message),
  });
  assert.match(answer.body.discord.embeds[0].title ?? "", /Update the README/);
  assert.equal(answer.body.discord.content, "<@&42>");
});

Deno.test("preview: a ping is never sent; bad input is a 400 naming the field", async () => {
  await using app = await startAdminApp();
  const ping = await app.call("viewer", "POST", PREVIEW, {
    body: { event: "ping", payload: { zen: "hi" } },
  });
  assert.deepEqual(ping.body, { kind: "ping", discord: null, telegram: null });
  const bad = await app.call("viewer", "POST", PREVIEW, { body: { payload: [] } });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error, /^payload: /);
  const event = await app.call("viewer", "POST", PREVIEW, {
    body: { event: "bad event!", payload: {} },
  });
  assert.equal(event.status, 400);
  assert.match(event.body.error, /^event: /);
  const none = await app.call("none", "POST", PREVIEW, { body: { payload: {} } });
  assert.equal(none.status, 401);
});

Deno.test("markup: Telegram HTML becomes elements; unknown tags and entities stay text", () => {
  assert.deepEqual(
    parseTelegramHtml(
      '<b><a href="https://x.test/?a=1&amp;b=2">PR &lt;#2&gt;</a></b> by <i>me</i>\n' +
        '<blockquote>quoted</blockquote><script>alert(1)</script><a href="javascript:x">y</a>',
    ),
    [
      {
        tag: "b",
        children: [{ tag: "a", href: "https://x.test/?a=1&b=2", children: ["PR <#2>"] }],
      },
      " by ",
      { tag: "i", children: ["me"] },
      "\n",
      { tag: "blockquote", children: ["quoted"] },
      "<script>",
      "alert(1)",
      "</script>",
      { tag: "a", children: ["y"] },
    ],
  );
});

Deno.test("markup: the formatter's Discord markdown becomes elements", () => {
  assert.deepEqual(
    parseDiscordMarkdown(
      "**Bold \\*star\\*** and *it* `co*de` [label](https://x.test/a%28b%29)\n> one\n> two\nend",
    ),
    [
      { tag: "b", children: ["Bold *star*"] },
      " and ",
      { tag: "i", children: ["it"] },
      " ",
      { tag: "code", children: ["co*de"] },
      " ",
      { tag: "a", href: "https://x.test/a(b)", children: ["label"] },
      "\n",
      { tag: "blockquote", children: ["one", "\n", "two"] },
      "end",
    ],
  );
  assert.deepEqual(parseDiscordMarkdown("[x](javascript:alert)"), [
    { tag: "a", children: ["x"] },
  ]);
});

Deno.test("markup: every bundled sample's messages read back to their own text", async () => {
  const text = (nodes: ReturnType<typeof parseTelegramHtml>): string =>
    nodes.map((node) => typeof node === "string" ? node : text(node.children)).join("");
  for (const id of ["pull_request.opened", "issues.opened", "push", "release.published"]) {
    const payload = await sampleJson(id);
    const [kind, action] = id.split(".");
    const message = formatEvent({
      id: "x",
      provider: "github",
      kind,
      action: action ?? payload.action,
      scope: { type: "global" },
      receivedAt: 0,
      headers: {},
      payload,
    })!;
    const shown = text(parseTelegramHtml(renderTelegram(message).text));
    assert.ok(shown.includes(message.title.slice(0, 40)), id);
    assert.ok(!shown.includes("<b>") && !shown.includes("&amp;"), id);
    const embed = renderDiscord(message).embeds[0];
    const description = text(parseDiscordMarkdown(embed.description ?? ""));
    assert.ok(!description.includes("\\"), `${id}: escapes are read`);
  }
});
