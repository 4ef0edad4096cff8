/**
 * A chat link's confirmation in Telegram is a chat call like any other: it goes through the
 * Telegram adapter, so the rate limiter reserves and observes it.
 */
import assert from "node:assert/strict";
import { chatLinkAnnouncer } from "../../lib/chatops/link_confirmation.ts";
import { createAdapters } from "../../lib/delivery/adapters.ts";
import { startFakeTelegram } from "../../testing/fake_chat.ts";
import { captureLog } from "../_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { deliveryConfig, FAST_TELEGRAM } from "../_delivery_helpers.ts";
import { CountingPacer } from "../_telegram_helpers.ts";

Deno.test("a Telegram link confirmation is posted through the rate limiter", async () => {
  await using kv = await openTestKv();
  await using telegram = startFakeTelegram();
  const config = deliveryConfig({ telegram });
  const pacer = new CountingPacer({ limits: FAST_TELEGRAM });
  const announce = chatLinkAnnouncer(createAdapters(config, { telegram: pacer }));
  await announce({ kv, config, log: captureLog().log }, {
    platform: "telegram",
    chatUserId: "42",
    requestId: "r1",
    username: "alice",
    createdAt: Date.now(),
    telegramChatId: "42",
  }, "alice-gh");
  assert.deepEqual(
    telegram.received.map((message) => [message.chat, message.body.text]),
    [["42", "Your Telegram account is now linked to the GitHub account alice-gh."]],
  );
  assert.equal(telegram.requests(), 1);
  assert.deepEqual(pacer.reserved, ["message"], "the post was reserved as a message");
  assert.deepEqual(pacer.observed, ["sent"], "its answer was observed");
});
