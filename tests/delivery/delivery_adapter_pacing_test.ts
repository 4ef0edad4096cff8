/**
 * One platform path: every chat call delivery makes goes through the platform's adapter, which
 * the rate limiter sees twice, once when the call is reserved and once when its answer comes.
 * A digest (its post and its close), a thread (its start and the post into it) and an edit in
 * place (the card's edit and the notice) each make as many reservations and observations as
 * the fake platform receives requests.
 */
import assert from "node:assert/strict";
import type { Reservation } from "../../lib/platform/even_pace.ts";
import { type DiscordObservation, DiscordRateLimiter } from "../../lib/discord/rate_limit.ts";
import { createDiscordAdapter } from "../../lib/discord/adapter.ts";
import { TelegramPacer } from "../../lib/telegram/pacer.ts";
import { utf8 } from "../../lib/encoding.ts";
import type { Kv } from "../../lib/store/backend/types.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import type { Route } from "../../lib/types.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { openTestKv } from "../../testing/test_store.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  FAST_TELEGRAM,
  runWorker,
  settled,
  storeRoutes,
} from "../_delivery_helpers.ts";

/** A Discord limiter that counts granted reservations and observed answers. */
class CountingLimiter extends DiscordRateLimiter {
  reserved = 0;
  observed = 0;

  override reserve(channelId: string, maxWaitMs: number): Reservation {
    const reservation = super.reserve(channelId, maxWaitMs);
    if (reservation.granted) this.reserved++;
    return reservation;
  }

  override observe(channelId: string, observation: DiscordObservation): void {
    this.observed++;
    super.observe(channelId, observation);
  }
}

const CHANNEL = { platform: "discord", channelId: "100" } as const;
const repository = { full_name: "octo/app", html_url: "https://github.com/octo/app" };
const sender = { login: "alice", html_url: "https://github.com/alice", type: "User" };

function pull(state: "open" | "closed") {
  return {
    number: 7,
    title: "Change 7",
    html_url: "https://github.com/octo/app/pull/7",
    state,
    user: sender,
    head: { ref: "branch-7", sha: "abc", repo: { full_name: "octo/app" } },
    base: { ref: "main" },
  };
}

function githubRoute(extra: Partial<Route> = {}): Route {
  return {
    id: "prs",
    name: "PRs",
    enabled: true,
    groupId: "team",
    filters: [{ type: "event", value: ["pull_request", "issue_comment"] }],
    targets: [CHANNEL],
    ...extra,
  };
}

async function acceptGithub(kv: Kv, kind: string, payload: Record<string, unknown>) {
  const outcome = await saveEvent(kv, {
    provider: "github",
    kind,
    action: payload.action as string,
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify({ ...payload, repository, sender })),
  });
  assert.equal(outcome.status, "accepted");
  const logs = await settled(kv, outcome.status === "accepted" ? outcome.eventId : "", 1);
  assert.equal(logs[0].status, "ok", logs[0].error);
}

/** Runs `scenario` with a counting limiter; returns the fake's requests and the counts. */
async function countCalls(
  routes: Route[],
  scenario: (kv: Kv, close: (digestId: string) => Promise<void>) => Promise<void>,
  clock: { offsetMs: number } = { offsetMs: 0 },
  prepare: (discord: ReturnType<typeof startFakeDiscord>) => void = () => {},
) {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  prepare(discord);
  await storeRoutes(kv, routes);
  const limiter = new CountingLimiter();
  await using running = runWorker(kv, deliveryConfig({ discord }), {
    limiters: { discord: limiter, telegram: new TelegramPacer({ limits: FAST_TELEGRAM }) },
    now: () => Date.now() + clock.offsetMs,
  });
  await scenario(kv, (digestId) => {
    return running.worker.handlers.digest_close({ type: "digest_close", digestId });
  });
  return {
    requests: discord.requests(),
    reserved: limiter.reserved,
    observed: limiter.observed,
    edits: discord.edits.length,
  };
}

Deno.test("a digest's post and close each pass through the rate limiter", async () => {
  const clock = { offsetMs: 0 };
  const route = { ...customRoute("burst", [CHANNEL]), digest: { windowSeconds: 60, threshold: 1 } };
  const counts = await countCalls([route], async (kv, close) => {
    await settled(kv, await acceptCustom(kv, "A"), 1);
    const [gathered] = await settled(kv, await acceptCustom(kv, "B"), 1);
    assert.ok(gathered.digestId, "B went into the digest");
    clock.offsetMs = 61_000;
    await close(gathered.digestId);
  }, clock);
  assert.equal(counts.requests, 3, "A, the digest's post, its closing edit");
  assert.equal(counts.edits, 1, "the close edited the digest");
  assert.equal(counts.reserved, counts.requests, "every request was reserved");
  assert.equal(counts.observed, counts.requests, "every answer was observed");
});

Deno.test("a thread's start and the post into it each pass through the rate limiter", async () => {
  const counts = await countCalls([githubRoute({ threads: true })], async (kv) => {
    await acceptGithub(kv, "pull_request", { action: "opened", pull_request: pull("open") });
    await acceptGithub(kv, "issue_comment", {
      action: "created",
      issue: { ...pull("open"), pull_request: { url: "x" } },
      comment: { body: "LGTM", html_url: "https://github.com/octo/app/pull/7#c1", user: sender },
    });
  });
  assert.equal(counts.requests, 3, "the card, the thread's start, the comment in it");
  assert.equal(counts.reserved, counts.requests, "every request was reserved");
  assert.equal(counts.observed, counts.requests, "every answer was observed");
});

Deno.test("an edit in place and its notice each pass through the rate limiter", async () => {
  const counts = await countCalls([githubRoute()], async (kv) => {
    await acceptGithub(kv, "pull_request", { action: "opened", pull_request: pull("open") });
    await acceptGithub(kv, "pull_request", { action: "closed", pull_request: pull("closed") });
  });
  assert.equal(counts.requests, 3, "the card, its edit, the notice");
  assert.equal(counts.edits, 1, "the card was edited in place");
  assert.equal(counts.reserved, counts.requests, "every request was reserved");
  assert.equal(counts.observed, counts.requests, "every answer was observed");
});

Deno.test("the lookup of a target thread's channel passes through the rate limiter", async () => {
  const thread = { platform: "discord", channelId: "100", threadId: "555" } as const;
  const counts = await countCalls(
    [customRoute("in-thread", [thread])],
    async (kv) => {
      const [log] = await settled(kv, await acceptCustom(kv, "A"), 1);
      assert.equal(log.status, "ok", log.error);
    },
    undefined,
    (discord) => discord.addThread("555", "100"),
  );
  assert.equal(counts.requests, 2, "the thread's lookup, the post into it");
  assert.equal(counts.reserved, counts.requests, "every request was reserved");
  assert.equal(counts.observed, counts.requests, "every answer was observed");
});

Deno.test("opening a Discord DM channel passes through the rate limiter", async () => {
  await using discord = startFakeDiscord();
  const limiter = new CountingLimiter();
  const adapter = createDiscordAdapter(deliveryConfig({ discord }), limiter);
  const pacing = {
    maxSleepMs: 1_000,
    sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  };
  const saved = new Map<string, string>();
  const remembered = {
    get: (userId: string) => Promise.resolve(saved.get(userId) ?? null),
    save: (userId: string, channelId: string) => {
      saved.set(userId, channelId);
      return Promise.resolve();
    },
  };
  const opened = await adapter.directTarget("42", pacing, remembered);
  const again = await adapter.directTarget("42", pacing, remembered);
  assert.ok("platform" in opened, "the DM channel was opened");
  assert.deepEqual(again, opened, "the second time it was remembered");
  assert.deepEqual(discord.dmsOpened, ["42"]);
  assert.equal(discord.requests(), 1);
  assert.equal(limiter.reserved, 1, "the opening was reserved");
  assert.equal(limiter.observed, 1, "its answer was observed");
});
