/**
 * A chat link's confirmation in Telegram is a chat call like any other: it goes through the
 * Telegram adapter, so the rate limiter reserves and observes it.
 */
import assert from "node:assert/strict";
import { chatLinkAnnouncer } from "../../lib/chatops/link_confirmation.ts";
import { createAdapters } from "../../lib/delivery/adapters.ts";
import type { Reservation } from "../../lib/platform/even_pace.ts";
import { TelegramPacer } from "../../lib/telegram/pacer.ts";
import { startFakeTelegram } from "../../testing/fake_chat.ts";
import { captureLog } from "../_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { deliveryConfig, FAST_TELEGRAM } from "../_delivery_helpers.ts";

/** A Telegram pacer that counts granted reservations and observed answers. */
class CountingPacer extends TelegramPacer {
  reserved = 0;
  observed = 0;

  override reserve(chatId: string, maxWaitMs: number): Reservation {
    const reservation = super.reserve(chatId, maxWaitMs);
    if (reservation.granted) this.reserved++;
    return reservation;
  }

  override observe(chatId: string, answer: { kind: string; retryAfterMs?: number }): void {
    this.observed++;
    super.observe(chatId, answer);
  }
}

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
  assert.equal(pacer.reserved, 1, "the post was reserved");
  assert.equal(pacer.observed, 1, "its answer was observed");
});
