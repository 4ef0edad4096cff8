/** End to end: a signed GitHub webhook posted to /webhook arrives once on each fake platform. */
import assert from "node:assert/strict";
import { readMetrics } from "../../lib/store/telemetry/metrics.ts";
import { getSendLog, listSendLogs } from "../../lib/store/delivery/send_logs.ts";
import { startTestApp } from "../_helpers.ts";
import { startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import { fixture, githubRequest, SECRETS } from "../_ingest_helpers.ts";
import { runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";

const ROLE = "123456789012345678";

Deno.test("a pull request accepted at /webhook reaches Discord and Telegram once, well formatted", async () => {
  await using discord = startFakeDiscord();
  discord.addThread("2222", "1111");
  await using telegram = startFakeTelegram();
  await using app = await startTestApp({
    GITHUB_WEBHOOK_SECRET: SECRETS.github[0],
    DISCORD_BOT_TOKEN: "test-bot-token",
    DISCORD_API_URL: discord.url,
    TELEGRAM_BOT_TOKEN: "123456:test-token",
    TELEGRAM_API_URL: telegram.url,
  });
  await storeRoutes(app.kv, [{
    id: "prs",
    name: "Pull requests",
    enabled: true,
    groupId: "acme",
    filters: [{ type: "event", value: "pull_request.opened" }],
    discordRoleIds: [ROLE],
    targets: [
      { platform: "discord", channelId: "1111", threadId: "2222" },
      { platform: "telegram", chatId: "-100333", topicId: 9 },
    ],
  }, {
    id: "pushes",
    name: "Pushes",
    enabled: true,
    groupId: "acme",
    filters: [{ type: "event", value: "push" }],
    targets: [{ platform: "discord", channelId: "4444" }],
  }]);
  await using _worker = runWorker(app.kv, app.config);

  const body = await fixture("pull_request/opened.payload.json");
  const payload = JSON.parse(new TextDecoder().decode(body));
  const response = await app.app.fetch(await githubRequest(body, { delivery: "e2e-delivery-1" }));
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { ok: true });

  const logs = await settled(app.kv, "e2e-delivery-1", 2);
  for (const log of logs) {
    const { platform, status, attempts, event, action, provider, routeId } = log;
    assert.deepEqual(
      { status, attempts, event, action, provider, routeId },
      {
        status: "ok",
        attempts: 1,
        event: "pull_request",
        action: "opened",
        provider: "github",
        routeId: "prs",
      },
      platform,
    );
  }
  assert.deepEqual(
    logs.map((log) => log.repository),
    logs.map(() => payload.repository.full_name),
  );

  assert.equal(discord.received.length, 1);
  const posted = discord.received[0];
  assert.equal(posted.chat, "2222", "posted in the thread");
  const embed = (posted.body.embeds as { title: string; url?: string }[])[0];
  assert.match(embed.title, new RegExp(payload.pull_request.title));
  assert.equal(embed.url, payload.pull_request.html_url);
  assert.equal(posted.body.content, `<@&${ROLE}>`);
  assert.deepEqual(posted.body.allowed_mentions, { parse: [], roles: [ROLE] });
  assert.equal(posted.body.enforce_nonce, true);

  assert.equal(telegram.received.length, 1);
  const sent = telegram.received[0].body;
  assert.equal(sent.chat_id, "-100333");
  assert.equal(sent.message_thread_id, 9);
  assert.equal(sent.parse_mode, "HTML");
  assert.deepEqual(sent.link_preview_options, { is_disabled: true });
  assert.match(String(sent.text), /<b>.*<\/b>/);
  assert.ok(String(sent.text).includes(payload.pull_request.title));

  const discordLog = logs.find((log) => log.platform === "discord")!;
  assert.equal(discordLog.messageId, posted.messageId);
  assert.deepEqual(await getSendLog(app.kv, discordLog.id), discordLog);
  assert.equal((await listSendLogs(app.kv, { groupId: "acme" })).items.length, 2);
  assert.equal(
    (await listSendLogs(app.kv, { groupId: "acme", routeId: "pushes" })).items.length,
    0,
  );
  const metrics = await readMetrics(app.kv, { groupIds: ["acme"] });
  assert.deepEqual(metrics.byEvent.pull_request, {
    total: 2,
    ok: 2,
    failed: 0,
    dead: 0,
    retrying: 0,
  });
  assert.equal(metrics.byPlatform.discord.ok, 1);
  assert.equal(metrics.byPlatform.telegram.ok, 1);
  assert.equal(metrics.failureRate, 0);
  assert.equal(metrics.latency.count, 2, "both successes have a latency");
  assert.ok(metrics.latency.p50Ms !== undefined && metrics.latency.p95Ms !== undefined);
  assert.deepEqual(metrics.latencyByDay.map((day) => day.count), [2]);
});
