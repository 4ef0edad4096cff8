/**
 * Shared set-up of the personal-notification tests: fake GitHub, Discord and Telegram, a
 * delivery worker with the notification jobs, linked people with stored tokens, two groups
 * bound to `acme` receiving every event, and GitHub events accepted as the ingress does.
 */
import type { Kv } from "../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { createDeliveryWorker } from "../lib/delivery/worker.ts";
import { DiscordRateLimiter } from "../lib/discord/rate_limit.ts";
import { utf8 } from "../lib/encoding.ts";
import { notifyHandlers } from "../lib/notify/handlers.ts";
import { saveEvent } from "../lib/store/delivery/events.ts";
import { listJobs } from "../lib/store/delivery/jobs.ts";
import { saveDiscordLink, saveTelegramLink } from "../lib/store/auth/links.ts";
import { startQueueWorker } from "../lib/delivery/job_worker.ts";
import { saveToken } from "../lib/store/auth/tokens.ts";
import { TelegramPacer } from "../lib/telegram/pacer.ts";
import {
  type FakeChat,
  type FakeDiscord,
  startFakeDiscord,
  startFakeTelegram,
} from "../testing/fake_chat.ts";
import { captureLog, waitFor } from "./_helpers.ts";
import { deliveryConfig, FAST_TELEGRAM, jobsDone, storeRoutes } from "./_delivery_helpers.ts";
import { type FakeGitHub, githubEnv, startFakeGitHub } from "./fake_github.ts";

/** The repository of the tests' events. */
export const REPO = "acme/widgets";

/** A linked person: GitHub account and chat accounts. */
export interface Person {
  id: number;
  login: string;
  telegram: string;
  discord: string;
}

/** The people of the tests. */
export const OCTO: Person = {
  id: 583231,
  login: "octocat",
  telegram: "424242",
  discord: "223456789012345678",
};
export const AUTHOR: Person = {
  id: 11,
  login: "author",
  telegram: "111111",
  discord: "323456789012345678",
};

/** A running set-up; dispose with `await using`. */
export interface NotifySetup extends AsyncDisposable {
  kv: Kv;
  github: FakeGitHub;
  discord: FakeDiscord;
  telegram: FakeChat;
  /** Access tokens by GitHub user id. */
  tokens: Map<number, string>;
  /** Accepts a GitHub event; returns its event id. */
  accept(kind: string, payload: Record<string, unknown>): Promise<string>;
  /** Waits until every job (fan-out, notification, flush) is done. */
  idle(): Promise<void>;
  /** Waits until the accepted events' work is done: every job left is a pending flush. */
  onlyFlushesLeft(): Promise<void>;
  /** Messages the person's Telegram private chat and Discord DM received. */
  inbox(person: Person): { telegram: string[]; discord: string[] };
}

/**
 * Starts the fakes and workers; `windowMs` is the digest window, `gatherMs` the gather window
 * (100 ms unless given), `now` the jobs' clock.
 */
export async function startNotify(
  kv: Kv,
  options: {
    windowMs?: number;
    gatherMs?: number;
    now?: () => number;
    env?: Record<string, string>;
  } = {},
): Promise<NotifySetup> {
  const github = startFakeGitHub();
  const discord = startFakeDiscord();
  const telegram = startFakeTelegram();
  const config = deliveryConfig({ discord, telegram }, { ...githubEnv(github), ...options.env });
  const { log } = captureLog();
  const worker = createDeliveryWorker({
    kv,
    config,
    log,
    backoffMs: [20, 40, 60],
    leaseMs: 2_000,
    maxSleepMs: 50,
    sweepEveryMs: 0,
    limiters: {
      discord: new DiscordRateLimiter(),
      telegram: new TelegramPacer({ limits: FAST_TELEGRAM }),
    },
  });
  const personal = notifyHandlers({
    kv,
    config,
    log,
    adapters: worker.adapters,
    windowMs: options.windowMs ?? 60_000,
    gatherMs: options.gatherMs ?? 100,
    maxSleepMs: 50,
    ...(options.now ? { now: options.now } : {}),
  });
  const queue = startQueueWorker(kv, { ...worker.handlers, ...personal }, log);
  await storeRoutes(kv, [route("alpha"), route("beta")], ["acme"]);
  const tokens = new Map<number, string>();
  let counter = 0;
  const setup: NotifySetup = {
    kv,
    github,
    discord,
    telegram,
    tokens,
    async accept(kind, payload) {
      const outcome = await saveEvent(kv, {
        provider: "github",
        kind,
        action: typeof payload.action === "string" ? payload.action : undefined,
        deliveryId: `d-${++counter}-${crypto.randomUUID()}`,
        scope: { type: "global" },
        receivedAt: Date.now(),
        headers: {},
        body: utf8(JSON.stringify(payload)),
      });
      assert.equal(outcome.status, "accepted");
      return outcome.status === "accepted" ? outcome.eventId : "";
    },
    async idle() {
      await jobsDone(kv, 10_000);
    },
    async onlyFlushesLeft() {
      await waitFor(
        "only flushes to be left",
        async () => (await listJobs(kv)).every((job) => job.value.message.type === "notify_flush"),
      );
    },
    inbox(person) {
      return {
        telegram: telegram.received.filter((m) => m.chat === person.telegram)
          .map((m) => String(m.body.text)),
        discord: discord.received.filter((m) => m.chat === `9${person.discord}`)
          .map((m) => JSON.stringify(m.body)),
      };
    },
    async [Symbol.asyncDispose]() {
      await queue.drain(5_000);
      await worker.close();
      await discord.close();
      await telegram.close();
      await github[Symbol.asyncDispose]();
    },
  };
  return setup;
}

/** A route of `groupId` that fires on pushes only: the group still receives every event. */
function route(groupId: string) {
  return {
    id: `${groupId}-route`,
    name: groupId,
    enabled: true,
    groupId,
    filters: [{ type: "event" as const, value: "push" }],
    targets: [{ platform: "telegram" as const, chatId: `-100${groupId.length}` }],
  };
}

/**
 * Links `person`'s Telegram and Discord accounts, stores a token GitHub accepts, and lets it
 * read `readable` repositories (REPO by default). `refreshable: false` stores no refresh token.
 */
export async function link(
  setup: NotifySetup,
  person: Person,
  options: { readable?: string[]; refreshable?: boolean } = {},
): Promise<void> {
  const pair = setup.github.issueTokens({ id: person.id, login: person.login });
  setup.tokens.set(person.id, pair.accessToken);
  await saveToken(setup.kv, {
    userId: String(person.id),
    login: person.login,
    accessToken: pair.accessToken,
    expiresAt: Date.now() + 8 * 3600_000,
    ...(options.refreshable === false || !pair.refreshToken
      ? {}
      : { refreshToken: pair.refreshToken, refreshTokenExpiresAt: null }),
  });
  setup.github.readable.set(person.id, new Set(options.readable ?? [REPO]));
  const base = { userId: String(person.id), login: person.login, linkedAt: Date.now() };
  await saveTelegramLink(setup.kv, { ...base, telegramUserId: person.telegram });
  await saveDiscordLink(setup.kv, { ...base, discordUserId: person.discord });
}

const REPOSITORY = {
  id: 1,
  name: "widgets",
  full_name: REPO,
  html_url: `https://github.com/${REPO}`,
  owner: { login: "acme", id: 5 },
};

/** A pull request of `author`, number `number`, head `sha`. */
export function pull(author: Person, number = 7, sha = "a".repeat(40)) {
  return {
    number,
    title: `Add widgets #${number}`,
    html_url: `https://github.com/${REPO}/pull/${number}`,
    state: "open",
    merged: false,
    user: { login: author.login, id: author.id },
    head: { sha, ref: "feature" },
    base: { ref: "main" },
    body: "",
  };
}

/** A payload of `sender` about the repository, with `fields`. */
export function payload(
  action: string,
  sender: { login: string; id: number },
  fields: Record<string, unknown>,
): Record<string, unknown> {
  return {
    action,
    repository: REPOSITORY,
    organization: { login: "acme" },
    sender: { login: sender.login, id: sender.id },
    ...fields,
  };
}
