/** The pure pieces of delivery: the retry policy, even pacing and the rate limiters. */
import assert from "node:assert/strict";
import { EvenPace } from "../../lib/platform/even_pace.ts";
import { decide, type RetryState } from "../../lib/delivery/retry_policy.ts";
import { DiscordRateLimiter, parseDiscordRateLimit } from "../../lib/discord/rate_limit.ts";
import { TelegramPacer } from "../../lib/telegram/pacer.ts";

Deno.test("retry policy: 5xx backs off along the schedule, then dead; 429 uses no retry", () => {
  const schedule = [5, 30];
  const retryable = { kind: "retryable", httpStatus: 502, error: "Bad Gateway" } as const;
  const at = (failures: number) => ({ failures });
  assert.deepEqual(decide(retryable, at(0), schedule, 0), {
    status: "retrying",
    failures: 1,
    delayMs: 5,
  });
  assert.deepEqual(decide(retryable, at(1), schedule, 0), {
    status: "retrying",
    failures: 2,
    delayMs: 30,
  });
  assert.deepEqual(decide(retryable, at(2), schedule, 0), { status: "dead", failures: 3 });
  assert.deepEqual(
    decide(
      { kind: "rate_limited", httpStatus: 429, retryAfterMs: 700, global: false, error: "" },
      at(1),
      schedule,
      1_000,
    ),
    { status: "retrying", failures: 1, rateLimits: 1, rateLimitedSince: 1_000, delayMs: 700 },
  );
  assert.deepEqual(
    decide({ kind: "rejected", httpStatus: 403, error: "Missing Access" }, at(0), schedule, 0),
    { status: "failed", failures: 0 },
  );
  assert.deepEqual(decide({ kind: "sent", httpStatus: 200 }, at(2), schedule, 0), {
    status: "ok",
    failures: 2,
  });
});

Deno.test("retry policy: a unit answered only 429s ends dead after a bounded time or count", () => {
  const limited = {
    kind: "rate_limited",
    httpStatus: 429,
    retryAfterMs: 0,
    global: false,
    error: "Too Many Requests",
  } as const;
  const bound = { maxMs: 10_000, maxInARow: 5 };
  let state: RetryState = { failures: 0 };
  for (let attempt = 1; attempt < 5; attempt++) {
    const decision = decide(limited, state, [5], attempt, bound);
    assert.equal(decision.status, "retrying");
    state = decision;
  }
  const fifth = decide(limited, state, [5], 5, bound);
  assert.equal(fifth.status, "dead");
  assert.match(fifth.reason!, /rate limited \(429\) 5 times in a row/);

  const slow = decide(
    limited,
    { failures: 0, rateLimits: 1, rateLimitedSince: 0 },
    [5],
    10_000,
    bound,
  );
  assert.equal(slow.status, "dead", "past the time bound");
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

Deno.test("lane pace: the next owner of a lane keeps the limit the last one learned", () => {
  let now = 1_000;
  const clock = () => now;
  const first = new DiscordRateLimiter({ now: clock });
  first.observe("7", { kind: "answer", rateLimit: { limit: 5, remaining: 0, resetAfterMs: 400 } });
  const left = first.paceOf("7")!;
  assert.equal(left.notBefore, 1_400);

  const next = new DiscordRateLimiter({ now: clock });
  next.adopt("7", left);
  assert.deepEqual(next.reserve("7", 1_000), { granted: true, waitMs: 400 });

  const pacer = new TelegramPacer({ now: clock });
  assert.equal(pacer.reserve("-5", 0).granted, true);
  const chat = new TelegramPacer({ now: clock });
  chat.adopt("-5", pacer.paceOf("-5")!);
  now += 1_000;
  assert.deepEqual(chat.reserve("-5", 0), { granted: false, waitMs: 2_000 }, "3 s per group");
});

Deno.test("even pace: a share of the limit when several instances keep it", () => {
  const pace = new EvenPace(10, 100);
  pace.share(2);
  assert.deepEqual([pace.take(0, 0), pace.take(0, 0)], [0, 20]);
});
