/**
 * The platform adapters: the channel a target posts into, where subjects are kept apart, how
 * threads work, and the delete call each platform makes (observed by its limiter).
 */
import assert from "node:assert/strict";
import { createDiscordAdapter } from "../../lib/discord/adapter.ts";
import { DiscordRateLimiter } from "../../lib/discord/rate_limit.ts";
import { createTelegramAdapter } from "../../lib/telegram/adapter.ts";
import { testConfig } from "../_helpers.ts";

const DISCORD = createDiscordAdapter(testConfig());
const TELEGRAM = createTelegramAdapter(testConfig());

Deno.test("a Discord target posts into its thread when it names one", () => {
  assert.equal(DISCORD.channelOf({ platform: "discord", channelId: "1" }), "1");
  assert.equal(DISCORD.channelOf({ platform: "discord", channelId: "1", threadId: "2" }), "2");
  assert.equal(DISCORD.placeOf({ platform: "discord", channelId: "1", threadId: "2" }), "2");
});

Deno.test("a Telegram target posts into its chat; its topic keeps subjects apart", () => {
  const target = { platform: "telegram", chatId: "-100", topicId: 9 } as const;
  assert.equal(TELEGRAM.channelOf(target), "-100");
  assert.equal(TELEGRAM.placeOf(target), "-100:9");
  assert.equal(TELEGRAM.placeOf({ platform: "telegram", chatId: "-100" }), "-100");
});

Deno.test("threads start from a card in a Discord channel, never in a thread; Telegram replies", () => {
  assert.equal(DISCORD.threadStyle({ platform: "discord", channelId: "1" }), "thread");
  assert.equal(DISCORD.threadStyle({ platform: "discord", channelId: "1", threadId: "2" }), "none");
  assert.deepEqual(DISCORD.inThread({ platform: "discord", channelId: "1" }, "5"), {
    platform: "discord",
    channelId: "1",
    threadId: "5",
  });
  assert.equal(TELEGRAM.threadStyle({ platform: "telegram", chatId: "-100" }), "reply");
  assert.deepEqual(TELEGRAM.asReply({ text: "hi" }, "42"), {
    text: "hi",
    reply_parameters: { message_id: 42, allow_sending_without_reply: true },
  });
});

/** A platform stub that records each request and answers `status` with `body` (null: none). */
function stub(status: number, body: unknown, headers: Record<string, string> = {}) {
  const requests: { method: string; path: string; body: string }[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    requests.push({ method: req.method, path: new URL(req.url).pathname, body: await req.text() });
    return body === null
      ? new Response(null, { status, headers })
      : Response.json(body, { status, headers });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("deleting a Discord message: the request, and the limiter learns the bucket", async () => {
  await using api = stub(204, null, {
    "x-ratelimit-limit": "5",
    "x-ratelimit-remaining": "0",
    "x-ratelimit-reset-after": "30",
  });
  const limiter = new DiscordRateLimiter();
  const adapter = createDiscordAdapter(
    testConfig({ DISCORD_BOT_TOKEN: "t", DISCORD_API_URL: api.url }),
    limiter,
  );
  const target = { platform: "discord", channelId: "1", threadId: "2" } as const;
  const result = await adapter.delete(target, "77");
  assert.equal(result.kind, "sent");
  assert.deepEqual(api.requests.map(({ method, path }) => [method, path]), [
    ["DELETE", "/channels/2/messages/77"],
  ]);
  assert.equal(limiter.reserve("2", 1_000).granted, false, "the bucket it saw is empty");
});

Deno.test("deleting a Telegram message that is already gone counts as deleted", async () => {
  await using api = stub(400, {
    ok: false,
    description: "Bad Request: message to delete not found",
  });
  const adapter = createTelegramAdapter(
    testConfig({ TELEGRAM_BOT_TOKEN: "1:t", TELEGRAM_API_URL: api.url }),
  );
  const result = await adapter.delete({ platform: "telegram", chatId: "-100" }, "42");
  assert.equal(result.kind, "sent");
  assert.equal(api.requests[0].path, "/bot1:t/deleteMessage");
  assert.deepEqual(JSON.parse(api.requests[0].body), { chat_id: "-100", message_id: 42 });
});
