/**
 * Message templates end to end: a signed GitHub webhook reaches the fake Discord and Telegram
 * as the route's templated message (hostile payload text escaped by each platform's renderer),
 * and a template that fails for the event falls back to the built-in message with the reason
 * in the send log.
 */
import assert from "node:assert/strict";
import { formatEvent } from "../../lib/format/mod.ts";
import { escapeHtml } from "../../lib/format/text.ts";
import { getSendLog } from "../../lib/store/delivery/send_logs.ts";
import type { Route } from "../../lib/types.ts";
import { startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import { runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";
import { startTestApp } from "../_helpers.ts";
import { fixture, githubRequest, jsonBytes, SECRETS } from "../_ingest_helpers.ts";

const HOSTILE_TITLE = "@everyone <script>alert(1)</script> **now**";

const TEMPLATE = {
  title: "{{truncate pull_request.title 60}} (#{{number}})",
  body: [
    '{{bold sender.login}} {{action}} {{link pull_request.html_url "the pull request"}}',
    '{{#if pull_request.labels}}Labels: {{join pull_request.labels[*].name ", "}}{{/if}}',
    "{{quote pull_request.title}}",
  ].join("\n"),
};

function prRoute(id: string, template: Route["template"], targets: Route["targets"]): Route {
  return {
    id,
    name: id,
    enabled: true,
    groupId: "acme",
    filters: [{ type: "event", value: "pull_request.opened" }],
    targets,
    ...(template ? { template } : {}),
  };
}

Deno.test("a templated route posts the template's message on Discord and Telegram; a failing template falls back", async () => {
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  await using app = await startTestApp({
    GITHUB_WEBHOOK_SECRET: SECRETS.github[0],
    DISCORD_BOT_TOKEN: "test-bot-token",
    DISCORD_API_URL: discord.url,
    TELEGRAM_BOT_TOKEN: "123456:test-token",
    TELEGRAM_API_URL: telegram.url,
  });
  await storeRoutes(app.kv, [
    prRoute("templated", TEMPLATE, [
      { platform: "discord", channelId: "1111" },
      { platform: "telegram", chatId: "-100333" },
    ]),
    prRoute("greedy", { body: "{{#each $..*}}{{#each $..*}}{{length $..*}}{{/each}}{{/each}}" }, [
      { platform: "discord", channelId: "5555" },
    ]),
    prRoute("stale", { body: "{{#if draft}}never closed" }, [
      { platform: "telegram", chatId: "-100777" },
    ]),
  ]);
  await using _worker = runWorker(app.kv, app.config);

  const payload = JSON.parse(
    new TextDecoder().decode(await fixture("pull_request/opened.payload.json")),
  );
  payload.pull_request.title = HOSTILE_TITLE;
  payload.pull_request.labels = [{ name: "<b>bug</b>" }, { name: "ui" }];
  const response = await app.app.fetch(
    await githubRequest(jsonBytes(payload), { delivery: "template-e2e" }),
  );
  assert.equal(response.status, 200);
  const logs = await settled(app.kv, "template-e2e", 4);
  assert.ok(logs.every((log) => log.status === "ok"), JSON.stringify(logs));

  const posted = discord.received.find((message) => message.chat === "1111")!;
  const embed = (posted.body.embeds as { title: string; description: string; url: string }[])[0];
  assert.equal(embed.title, `${HOSTILE_TITLE} (#${payload.number})`);
  assert.equal(embed.url, payload.pull_request.html_url, "the built-in frame is kept");
  assert.deepEqual(posted.body.allowed_mentions, { parse: [] });
  assert.equal(posted.body.content, undefined, "nothing pings");
  assert.equal(
    embed.description,
    [
      `**${payload.sender.login}** opened [the pull request](${payload.pull_request.html_url})`,
      "Labels: \\<b\\>bug\\</b\\>, ui",
      "> @everyone \\<script\\>alert\\(1\\)\\</script\\> \\*\\*now\\*\\*",
    ].join("\n"),
  );

  const sent = telegram.received.find((message) => message.chat === "-100333")!.body;
  const text = String(sent.text);
  assert.equal(sent.parse_mode, "HTML");
  assert.ok(
    text.includes(
      `<a href="${payload.pull_request.html_url}">@everyone &lt;script&gt;alert(1)&lt;/script&gt; ` +
        `**now** (#${payload.number})</a>`,
    ),
    text,
  );
  assert.ok(text.includes(`<b>${payload.sender.login}</b> opened <a href=`));
  assert.ok(text.includes("Labels: &lt;b&gt;bug&lt;/b&gt;, ui"));
  assert.ok(
    text.includes(
      "<blockquote>@everyone &lt;script&gt;alert(1)&lt;/script&gt; **now**</blockquote>",
    ),
  );
  assert.ok(!text.includes("<script>"));

  const builtIn = formatEvent({
    id: "x",
    provider: "github",
    kind: "pull_request",
    action: "opened",
    scope: { type: "global" },
    receivedAt: 0,
    headers: {},
    payload,
  })!;
  const greedy = discord.received.find((message) => message.chat === "5555")!;
  assert.equal((greedy.body.embeds as { title: string }[])[0].title, builtIn.title);
  const greedyLog = logs.find((log) => log.routeId === "greedy")!;
  assert.match(
    greedyLog.templateError ?? "",
    /^template body: step budget exceeded \(more than 100000 steps for one event\)$/,
  );
  assert.equal(greedyLog.error, undefined);
  assert.equal((await getSendLog(app.kv, greedyLog.id))?.templateError, greedyLog.templateError);

  const stale = telegram.received.find((message) => message.chat === "-100777")!;
  assert.ok(String(stale.body.text).includes(escapeHtml(builtIn.title)));
  const staleLog = logs.find((log) => log.routeId === "stale")!;
  assert.equal(
    staleLog.templateError,
    "template body: line 1, column 1: {{#if}} is not closed (missing {{/if}})",
  );
  for (const log of logs.filter((log) => log.routeId === "templated")) {
    assert.equal(log.templateError, undefined);
  }
});
