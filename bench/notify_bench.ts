/**
 * Personal-notification benchmark: the cost per event of finding whom to notify (`triggersOf`
 * then `recipientsOf`, what a `notify_event` job does before it holds anything) in a KV file with
 * 1,000 and then 10,000 linked people (a Telegram and a Discord link each, their settings with
 * every kind on, their repository access cached as after a first event). Events of each kind
 * that notifies: a direct review request, a review request from a team (its 10 members cached as
 * after a first event, their links looked up), a mention in a 60 KB comment with code blocks, an approving review of a person's
 * pull request, and a failed workflow run on a pull request's head. GitHub is never asked: its
 * address is a closed port on 127.0.0.1, so a cache miss would fail the run.
 *
 *   deno run -A bench/notify_bench.ts [--users 10000] [--events 200]
 */
import type { Kv } from "../lib/store/backend/types.ts";
import { parseArgs } from "node:util";
import { loadConfig } from "../lib/config.ts";
import { createAdapters } from "../lib/delivery/adapters.ts";
import { createLogger } from "../lib/log.ts";
import type { NotifyContext } from "../lib/notify/context.ts";
import { recipientsOf } from "../lib/notify/recipients.ts";
import { triggersOf } from "../lib/notify/triggers.ts";
import { saveDiscordLink, saveTelegramLink } from "../lib/store/auth/links.ts";
import {
  cacheAnswer,
  repoAccessAnswer,
  savePullHead,
  teamMembersAnswer,
} from "../lib/store/notify/notify_cache.ts";
import { NOTIFY_KINDS, updateNotifySettings } from "../lib/store/notify/notify_settings.ts";
import type { ForgeEvent, Group } from "../lib/types.ts";
import { type BenchResult, printResults } from "./result.ts";

const REPO = "acme/widgets";
const TEAM = "acme/core";
const GROUP_MEMBERS = 100;
/** One of the first group members in this many belongs to the team. */
const TEAM_EVERY = 10;
/** People written concurrently while the store is filled. */
const WRITE_BATCH = 100;
const HOUR_MS = 3_600_000;
/** A sender nobody linked. */
const OUTSIDER = { login: "ci-bot", id: 1 };

const { values } = parseArgs({
  args: Deno.args,
  options: { users: { type: "string" }, events: { type: "string" } },
});
const USERS = Math.min(Math.max(Number(values.users ?? 10_000), 1_000), 100_000);
const EVENTS = Math.min(Math.max(Number(values.events ?? 200), 20), 10_000);

const loginOf = (index: number) => `user-${index}`;
const idOf = (index: number) => 100_000 + index;
const shaOf = (index: number) => index.toString(16).padStart(40, "0");

/** Links person `index` on both platforms, switches every kind on and caches their access. */
async function addPerson(kv: Kv, index: number): Promise<void> {
  const base = { userId: String(idOf(index)), login: loginOf(index), linkedAt: Date.now() };
  await saveTelegramLink(kv, { ...base, telegramUserId: String(1_000_000_000 + index) });
  await saveDiscordLink(kv, {
    ...base,
    discordUserId: String(300_000_000_000_000_000n + BigInt(index)),
  });
  await updateNotifySettings(kv, base.userId, (settings) => ({
    ...settings,
    kinds: Object.fromEntries(NOTIFY_KINDS.map((kind) => [kind, true])) as typeof settings.kinds,
  }));
  await cacheAnswer(kv, repoAccessAnswer(base.userId, REPO), true, HOUR_MS);
}

async function addPeople(kv: Kv, from: number, to: number): Promise<void> {
  for (let first = from; first < to; first += WRITE_BATCH) {
    const batch = [];
    for (let index = first; index < Math.min(first + WRITE_BATCH, to); index++) {
      batch.push(addPerson(kv, index));
    }
    await Promise.all(batch);
  }
}

function person(index: number) {
  return { login: loginOf(index), id: idOf(index) };
}

function event(kind: string, action: string, fields: Record<string, unknown>): ForgeEvent {
  return {
    id: crypto.randomUUID(),
    provider: "github",
    kind,
    action,
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    payload: {
      action,
      repository: { full_name: REPO, owner: { login: "acme" } },
      organization: { login: "acme" },
      ...fields,
    },
  };
}

function pull(author: number) {
  return { number: author, user: person(author), head: { sha: shaOf(author) }, state: "open" };
}

/** A comment of about 60 KB: prose, code blocks that mention people, and five real mentions. */
function longBody(users: number, seed: number): string {
  const prose = "This change keeps the parser's cache warm across reloads. ".repeat(40);
  const code = "```ts\n// @user-1 wrote this, not a mention\nconst x = 1;\n```\n";
  const mentions = Array.from({ length: 5 }, (_, n) => `@${loginOf((seed + n * 131) % users)}`);
  const parts: string[] = [];
  while (parts.join("").length < 60_000) parts.push(prose, code);
  parts.splice(3, 0, `cc ${mentions.join(" ")} and @not-linked-${seed}`);
  return parts.join("\n");
}

/** The event of each kind for the `n`th run, and how many chat accounts it must reach. */
const KINDS: [string, (users: number, n: number) => [ForgeEvent, number]][] = [
  ["review_request", (users, n) => {
    const reviewer = (n * 7_919) % users;
    return [
      event("pull_request", "review_requested", {
        sender: person((reviewer + 1) % users),
        pull_request: pull((reviewer + 1) % users),
        requested_reviewer: person(reviewer),
      }),
      2,
    ];
  }],
  ["team_review_request", (users, n) => {
    const author = GROUP_MEMBERS + (n % (users - GROUP_MEMBERS));
    return [
      event("pull_request", "review_requested", {
        sender: person(author),
        pull_request: pull(author),
        requested_team: { slug: "core" },
      }),
      2 * GROUP_MEMBERS / TEAM_EVERY,
    ];
  }],
  ["mention_long_body", (users, n) => {
    return [
      event("issue_comment", "created", {
        sender: OUTSIDER,
        issue: { number: n, user: OUTSIDER },
        comment: { body: longBody(users, (n * 104_729) % users) },
      }),
      10,
    ];
  }],
  ["pull_request_review", (users, n) => {
    const author = (n * 7_919) % users;
    return [
      event("pull_request_review", "submitted", {
        sender: person((author + 1) % users),
        pull_request: pull(author),
        review: { state: "approved", body: "Looks good." },
      }),
      2,
    ];
  }],
  ["workflow_failure", (users, n) => {
    const author = (n * 7_919) % users;
    return [
      event("workflow_run", "completed", {
        sender: OUTSIDER,
        workflow_run: {
          conclusion: "failure",
          head_sha: shaOf(author),
          pull_requests: [{ number: author }],
          actor: OUTSIDER,
        },
      }),
      2,
    ];
  }],
];

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

/** Times the recipients step for each kind of event; checks each reached whom it must. */
async function measure(ctx: NotifyContext, group: Group, users: number): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const [name, eventOf] of KINDS) {
    const micros: number[] = [];
    for (let n = -10; n < EVENTS; n++) {
      const [forgeEvent, expected] = eventOf(users, Math.abs(n));
      const started = performance.now();
      const recipients = await recipientsOf(ctx, forgeEvent, REPO, triggersOf(forgeEvent), group);
      const elapsed = (performance.now() - started) * 1000;
      if (recipients.length !== expected) {
        throw new Error(`${name}: ${recipients.length} recipients, expected ${expected}`);
      }
      if (n >= 0) micros.push(elapsed);
    }
    const mean = micros.reduce((sum, value) => sum + value, 0) / micros.length;
    const p50 = percentile(micros, 0.5);
    const p99 = percentile(micros, 0.99);
    console.log(
      `| ${users} | ${name} | ${mean.toFixed(0)} | ${p50.toFixed(0)} | ${p99.toFixed(0)} |`,
    );
    const detail = { users, events: EVENTS };
    results.push(
      { bench: "notify", metric: `recipients.${name}.mean`, value: mean, unit: "us", ...detail },
      { bench: "notify", metric: `recipients.${name}.p99`, value: p99, unit: "us", ...detail },
    );
  }
  return results;
}

const folder = await Deno.makeTempDir({ prefix: "notify-bench-" });
const results: BenchResult[] = [];
try {
  await using kv = await Deno.openKv(`${folder}/kv.sqlite3`);
  const config = loadConfig({
    KV_PATH: `${folder}/kv.sqlite3`,
    GITHUB_API_URL: "http://127.0.0.1:9",
  });
  const ctx: NotifyContext = {
    kv,
    config,
    log: createLogger({ minLevel: "warn" }),
    adapters: createAdapters(config),
    windowMs: 60_000,
    gatherMs: 10_000,
    maxSleepMs: 0,
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  const group: Group = {
    id: "bench",
    name: "bench",
    owners: ["acme"],
    members: Array.from({ length: GROUP_MEMBERS }, (_, index) => ({
      userId: String(idOf(index)),
      login: loginOf(index),
      role: "viewer" as const,
    })),
  };
  console.log(`${EVENTS} events of each kind per size, after 10 warm-up events\n`);
  console.log("| linked people | event | mean µs | p50 µs | p99 µs |");
  console.log("| --- | --- | --- | --- | --- |");
  const team = Array.from(
    { length: GROUP_MEMBERS / TEAM_EVERY },
    (_, n) => loginOf(n * TEAM_EVERY),
  );
  await cacheAnswer(kv, teamMembersAnswer(TEAM), team, HOUR_MS);
  let stored = 0;
  for (const users of [1_000, USERS]) {
    const started = performance.now();
    await addPeople(kv, stored, users);
    for (let index = stored; index < users; index++) {
      await savePullHead(kv, REPO.toLowerCase(), shaOf(index), loginOf(index));
    }
    stored = users;
    console.error(
      `stored ${users} people in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    results.push(...await measure(ctx, group, users));
  }
} finally {
  await Deno.remove(folder, { recursive: true });
}
printResults(results);
