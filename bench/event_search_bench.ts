/**
 * Event search benchmark: one group with 100,000 stored events (payloads of about 3 KB, their
 * routed-event records and delivery id index) in a KV file, and the time of one page of typical
 * searches, as `GET /admin/api/groups/:id/events` answers them (`searchEvents`): by repository
 * (a common one, and one with a handful of events, which reads every record), by title text, by
 * delivery id, by a JSONPath filter over the payloads (a rare label, so the page stops at its
 * payload limits and answers a continue cursor), and a repository with a payload filter. Each
 * search runs `--runs` times with varying values; p50 and max are printed, with how many
 * records and payloads one page examined.
 *
 *   deno run -A bench/event_search_bench.ts [--events 100000] [--runs 20]
 */
import type { Kv } from "../lib/store/backend/types.ts";
import { parseArgs } from "node:util";
import { type EventSearch, searchEvents, type SearchPage } from "../lib/admin/event_search.ts";
import { searchPayloadFilter } from "../lib/admin/event_search_filter.ts";
import { utf8 } from "../lib/encoding.ts";
import { type EventRoutes, recordEventRoutes } from "../lib/store/delivery/event_routes.ts";
import { addEventWrites, EVENT_RETENTION_MS, prepareEvent } from "../lib/store/delivery/events.ts";
import { readGroupEntry } from "../lib/store/config/group_set.ts";
import { putGroup } from "../lib/store/config/groups.ts";
import { type BenchResult, printResults } from "./result.ts";

const GROUP = "bench";
const REPOSITORIES = 200;
/** A repository with only a few events, so a search for it reads every record. */
const RARE_REPOSITORY = "octo/rare";
const RARE_EVERY = 20_000;
const SECURITY_EVERY = 5_000;
const EVENTS_PER_COMMIT = 20;
const WORDS = ["flaky", "release", "docs", "cache", "parser", "login", "deploy", "bump"];
const KINDS = [
  ["pull_request", "opened"],
  ["pull_request", "closed"],
  ["issues", "opened"],
  ["push", undefined],
  ["workflow_run", "completed"],
] as const;

const { values } = parseArgs({
  args: Deno.args,
  options: { events: { type: "string" }, runs: { type: "string" } },
});
const EVENTS = Math.min(Math.max(Number(values.events ?? 100_000), 1_000), 1_000_000);
const RUNS = Math.min(Math.max(Number(values.runs ?? 20), 3), 200);

function repositoryOf(index: number): string {
  return index % RARE_EVERY === 7 ? RARE_REPOSITORY : `octo/app-${index % REPOSITORIES}`;
}

/** A pull-request-like payload of about 3 KB; every `SECURITY_EVERY`th has label `security`. */
function payloadOf(index: number): Record<string, unknown> {
  const word = WORDS[index % WORDS.length];
  return {
    action: KINDS[index % KINDS.length][1],
    number: index,
    pull_request: {
      number: index,
      title: `Fix the ${word} test ${index}`,
      body: `This change fixes the ${word} problem seen in run ${index}. `.repeat(20),
      draft: index % 4 === 0,
      labels: [
        { name: index % SECURITY_EVERY === 3 ? "security" : "bug", color: "d73a4a" },
        { name: word, color: "0e8a16" },
      ],
      head: { ref: `fix-${index}`, sha: (index * 2654435761).toString(16).padStart(40, "0") },
      base: { ref: "main" },
    },
    repository: { full_name: repositoryOf(index), private: false, default_branch: "main" },
    sender: { login: `person-${index % 500}`, type: "User" },
  };
}

async function store(kv: Kv, internalId: string): Promise<void> {
  const started = Date.now() - EVENTS;
  for (let first = 0; first < EVENTS; first += EVENTS_PER_COMMIT) {
    const op = kv.atomic();
    const records: { internalId: string; record: EventRoutes }[] = [];
    for (let index = first; index < Math.min(first + EVENTS_PER_COMMIT, EVENTS); index++) {
      const [kind, action] = KINDS[index % KINDS.length];
      const payload = payloadOf(index);
      const prepared = await prepareEvent({
        provider: "github",
        kind,
        action,
        deliveryId: `delivery-${index}`,
        scope: { type: "group", groupId: GROUP },
        receivedAt: started + index,
        headers: {},
        body: utf8(JSON.stringify(payload)),
      });
      addEventWrites(op, prepared);
      records.push({
        internalId,
        record: {
          eventId: prepared.eventId,
          deliveryId: `delivery-${index}`,
          provider: "github",
          kind,
          ...(action === undefined ? {} : { action }),
          repository: repositoryOf(index),
          sender: `person-${index % 500}`,
          title: `[${repositoryOf(index)}] #${index} ${
            (payload.pull_request as { title: string }).title
          }`,
          groupId: GROUP,
          routeIds: index % 3 === 0 ? [] : ["route-1"],
          receivedAt: started + index,
        },
      });
    }
    const committed = await op.commit();
    if (!committed.ok) throw new Error("could not store the events");
    await recordEventRoutes(kv, records, EVENT_RETENTION_MS);
  }
}

interface Timed {
  ms: number[];
  pages: SearchPage[];
}

async function time(
  kv: Kv,
  internalId: string,
  searchOf: (run: number) => EventSearch,
): Promise<Timed> {
  const timed: Timed = { ms: [], pages: [] };
  await searchEvents(kv, internalId, searchOf(RUNS));
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    timed.pages.push(await searchEvents(kv, internalId, searchOf(run)));
    timed.ms.push(performance.now() - started);
  }
  return timed;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const SEARCHES: [string, (run: number) => EventSearch][] = [
  ["repository", (run) => ({ repository: `octo/app-${run * 7 % REPOSITORIES}`, limit: 50 })],
  ["repository_rare", () => ({ repository: RARE_REPOSITORY, limit: 50 })],
  ["title_text", (run) => ({ text: WORDS[run % WORDS.length], limit: 50 })],
  ["title_text_rare", (run) => ({ text: `test ${EVENTS - 1 - run * 997}`, limit: 50 })],
  ["delivery_id", (run) => ({ deliveryId: `delivery-${(run * 4_999) % EVENTS}`, limit: 50 })],
  ["jsonpath", () => ({
    payload: searchPayloadFilter("$.pull_request.labels[*].name", "eq", "security"),
    limit: 50,
  })],
  ["jsonpath_common", (run) => ({
    payload: searchPayloadFilter("$.pull_request.title", "contains", WORDS[run % WORDS.length]),
    limit: 50,
  })],
  ["repository_and_jsonpath", (run) => ({
    repository: `octo/app-${run * 7 % REPOSITORIES}`,
    payload: searchPayloadFilter("$.pull_request.draft", "eq", "true"),
    limit: 50,
  })],
];

const folder = await Deno.makeTempDir({ prefix: "event-search-bench-" });
const results: BenchResult[] = [];
try {
  await using kv = await Deno.openKv(`${folder}/kv.sqlite3`);
  await putGroup(kv, { id: GROUP, name: GROUP, members: [] });
  const internalId = (await readGroupEntry(kv, GROUP)).entry!.internalId;
  const storing = performance.now();
  await store(kv, internalId);
  console.log(
    `stored ${EVENTS} events in ${((performance.now() - storing) / 1000).toFixed(1)} s; ` +
      `${RUNS} runs of each search, one page (limit 50)\n`,
  );
  console.log("| search | p50 ms | max ms | found | records examined | payloads read | partial |");
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  for (const [name, searchOf] of SEARCHES) {
    const { ms, pages } = await time(kv, internalId, searchOf);
    const last = pages[pages.length - 1];
    console.log(
      `| ${name} | ${median(ms).toFixed(1)} | ${Math.max(...ms).toFixed(1)} | ` +
        `${last.items.length} | ${last.reach.events} | ${last.reach.payloads} | ` +
        `${last.reach.partial} |`,
    );
    const detail = { events: EVENTS, runs: RUNS, examined: last.reach.events };
    results.push(
      { bench: "event_search", metric: `${name}.p50`, value: median(ms), unit: "ms", ...detail },
      {
        bench: "event_search",
        metric: `${name}.max`,
        value: Math.max(...ms),
        unit: "ms",
        ...detail,
      },
    );
  }
} finally {
  await Deno.remove(folder, { recursive: true });
}
printResults(results);
