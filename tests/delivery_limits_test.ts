/** The pure pieces of delivery: the retry policy, even pacing and the rate limiters. */
import assert from "node:assert/strict";
import { EvenPace } from "../lib/platform/even_pace.ts";
import { decide } from "../lib/delivery/retry_policy.ts";
import { DiscordRateLimiter, parseDiscordRateLimit } from "../lib/discord/rate_limit.ts";
import { TelegramPacer } from "../lib/telegram/pacer.ts";

Deno.test("retry policy: 5xx backs off along the schedule, then dead; 429 uses no retry", () => {
  const schedule = [5, 30];
  const retryable = { kind: "retryable", httpStatus: 502, error: "Bad Gateway" } as const;
  assert.deepEqual(decide(retryable, 0, schedule), { status: "retrying", failures: 1, delayMs: 5 });
  assert.deepEqual(decide(retryable, 1, schedule), {
    status: "retrying",
    failures: 2,
    delayMs: 30,
  });
  assert.deepEqual(decide(retryable, 2, schedule), { status: "dead", failures: 3 });
  assert.deepEqual(
    decide(
      { kind: "rate_limited", httpStatus: 429, retryAfterMs: 700, global: false, error: "" },
      1,
      schedule,
    ),
    { status: "retrying", failures: 1, delayMs: 700 },
  );
  assert.deepEqual(
    decide({ kind: "rejected", httpStatus: 403, error: "Missing Access" }, 0, schedule),
    { status: "failed", failures: 0 },
  );
  assert.deepEqual(decide({ kind: "sent", httpStatus: 200 }, 2, schedule), {
    status: "ok",
    failures: 2,
  });
});

Deno.test("even pace: events kept windowMs/max apart, reserved only on take", () => {
  const pace = new EvenPace(5, 100);
  assert.equal(pace.earliest(3), 3);
  assert.equal(pace.earliest(3), 3, "asking reserves nothing");
  assert.deepEqual(Array.from({ length: 4 }, () => pace.take(3, 3)), [3, 23, 43, 63]);
  assert.equal(pace.take(100, 3), 100, "a free time later on is taken as asked");
  assert.equal(pace.take(70, 3), 120, "a time too close to others moves after them");
});

Deno.test("discord limiter: waits for the bucket's reset once the headers say it is empty", () => {
  let now = 1_000;
  const limiter = new DiscordRateLimiter({ now: () => now });
  assert.deepEqual(limiter.reserve("c1", 0), { granted: true, waitMs: 0 });
  const headers = new Headers({
    "x-ratelimit-limit": "5",
    "x-ratelimit-remaining": "0",
    "x-ratelimit-reset-after": "2.5",
    "x-ratelimit-bucket": "abc",
  });
  const info = parseDiscordRateLimit(headers);
  assert.deepEqual(info, { bucket: "abc", limit: 5, remaining: 0, resetAfterMs: 2500 });
  limiter.observe("c1", { kind: "answer", rateLimit: info });
  assert.deepEqual(limiter.reserve("c1", 1000), { granted: false, waitMs: 2500 });
  assert.deepEqual(limiter.reserve("c2", 1000), { granted: true, waitMs: 20 }, "only 50/s apart");
  now += 2500;
  assert.equal(limiter.reserve("c1", 0).granted, true);
  limiter.observe("c1", { kind: "rate_limited", retryAfterMs: 3000, global: true });
  assert.equal(limiter.reserve("c2", 1000).granted, false, "a global 429 holds every channel");
});

Deno.test("telegram pacer: 1/s per chat, one every 3 s in a group, 30/s overall", () => {
  let now = 0;
  const pacer = new TelegramPacer({ now: () => now });
  const wait = (chat: string, maxWaitMs = 5000) => {
    const reservation = pacer.reserve(chat, maxWaitMs);
    return { granted: reservation.granted, waitMs: Math.round(reservation.waitMs) };
  };
  assert.deepEqual(wait("42"), { granted: true, waitMs: 0 });
  assert.deepEqual(wait("42", 0), { granted: false, waitMs: 1000 }, "1 message/s per chat");
  assert.deepEqual(wait("43"), { granted: true, waitMs: 33 }, "30/s overall, evenly spread");
  assert.deepEqual(wait("-100123"), { granted: true, waitMs: 67 });
  now = 1000;
  assert.deepEqual(wait("42"), { granted: true, waitMs: 0 });
  assert.deepEqual(wait("-100123", 0), { granted: false, waitMs: 2067 }, "20/min per group");
  pacer.holdChat("43", 5000);
  assert.deepEqual(wait("43", 0), { granted: false, waitMs: 5000 }, "a 429 holds the chat");
});
