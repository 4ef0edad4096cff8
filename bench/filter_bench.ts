/**
 * Filter engine benchmark: routes of realistic trees (3-6 leaves, mixed operators, `[*]`
 * paths; a third test the event first, a third last, a third only payload fields) over the
 * real GitHub fixture payloads. Measures, per event: the route set selection uses (shared
 * leaves, index by event kind) for 200 and 1,000 routes, `selectRoutes` itself, each route's
 * own compiled filter run one after the other, and the same trees evaluated naively
 * (jsonpath-plus and operand preparation on every leaf of every event); and the time to
 * compile 1,000 routes. Before timing, it checks that the route set, the per-route filters
 * and the naive evaluation agree on every route and event.
 *
 *   deno run -A bench/filter_bench.ts
 *
 * Prints a table, then one JSON result line per figure (see bench/README.md). The payloads are
 * the repository's GitHub webhook examples in `fixtures/github/` (one folder per event, one
 * file per example).
 */
import { compile, routeFilterNode } from "../lib/routing/compile.ts";
import { EvaluationBudget } from "../lib/jsonpath/budget.ts";
import { compileValueTest } from "../lib/routing/field_filter.ts";
import { compileEventFilter } from "../lib/routing/event_filter.ts";
import { type CompiledRoutes, compileRoutes, selectRoutes } from "../lib/routing/select.ts";
import { JSONPath } from "jsonpath-plus";
import { normalizePath } from "../lib/jsonpath/path.ts";
import { flattenValues } from "../lib/routing/values.ts";
import type { FieldFilter, FilterNode, Group, Route } from "../lib/types.ts";
import { type BenchResult, printResults } from "./result.ts";

interface BenchEvent {
  kind: string;
  action?: string;
  payload: Record<string, unknown>;
}

const FIXTURES = new URL("../fixtures/github/", import.meta.url);

async function loadFixtures(): Promise<BenchEvent[]> {
  const events: BenchEvent[] = [];
  for await (const folder of Deno.readDir(FIXTURES)) {
    if (!folder.isDirectory) continue;
    for await (const file of Deno.readDir(new URL(`${folder.name}/`, FIXTURES))) {
      if (!file.name.endsWith(".json")) continue;
      const text = await Deno.readTextFile(new URL(`${folder.name}/${file.name}`, FIXTURES));
      const payload = JSON.parse(text);
      const action = typeof payload.action === "string" ? payload.action : undefined;
      events.push({ kind: folder.name, action, payload });
    }
  }
  return events.sort((a, b) => `${a.kind}.${a.action}`.localeCompare(`${b.kind}.${b.action}`));
}

/** A small deterministic generator, so every run benchmarks the same trees. */
function seededRandom(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const EVENTS = ["push", "pull_request", "pull_request.opened", "issues.*", "issue_comment", [
  "release.published",
  "workflow_run",
]];
const LEAVES: FieldFilter[] = [
  { type: "field", path: "repository.full_name", op: "eq", value: "Codertocat/Hello-World" },
  { type: "field", path: "$.repository.name", op: "in", value: ["hello-world", "widgets"] },
  { type: "field", path: "sender.login", op: "endsWith", value: "[bot]" },
  { type: "field", path: "pull_request.labels[*].name", op: "in", value: ["bug", "security"] },
  { type: "field", path: "issue.labels[*].name", op: "contains", value: "bug" },
  { type: "field", path: "commits[*].message", op: "regex", value: "^(fix|feat)(\\(.+\\))?:" },
  { type: "field", path: "pull_request.title", op: "regex", value: "\\b(wip|draft)\\b" },
  { type: "field", path: "ref", op: "startsWith", value: "refs/heads/" },
  { type: "field", path: "pull_request.base.ref", op: "eq", value: "main" },
  { type: "field", path: "pull_request.additions", op: "gt", value: 100 },
  { type: "field", path: "repository.stargazers_count", op: "gte", value: "10" },
  { type: "field", path: "repository.updated_at", op: "gt", value: "2019-01-01T00:00:00Z" },
  { type: "field", path: "pull_request.draft", op: "ne", value: true },
  { type: "field", path: "repository.topics[*]", op: "eq", value: "deno" },
  { type: "field", path: "installation.id", op: "exists" },
  { type: "field", path: "organization.login", op: "exists", value: false },
  { type: "field", path: "$.pull_request.requested_reviewers[*].login", op: "eq", value: "ann" },
  { type: "field", path: "comment.body", op: "contains", value: "/deploy", caseSensitive: true },
  { type: "field", path: "action", op: "in", value: ["opened", "closed", "created"] },
  { type: "field", path: "repository.private", op: "eq", value: false },
];

function buildRoutes(count: number): Route[] {
  const random = seededRandom(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  return Array.from({ length: count }, (_, index) => {
    const leafCount = 3 + Math.floor(random() * 4);
    const fields = Array.from({ length: leafCount - 1 }, () => pick(LEAVES) as FilterNode);
    const eventLeaf: FilterNode = { type: "event", value: pick(EVENTS) };
    const [first, second, ...rest] = fields;
    const conditions = [second ? { any: [first, { not: second }] } : first, ...rest];
    const shape = index % 3;
    const ast: FilterNode = shape === 0
      ? { all: [eventLeaf, ...conditions] }
      : shape === 1
      ? { all: [...conditions, eventLeaf] }
      : { all: [pick(LEAVES), ...conditions] };
    return {
      id: `r${index}`,
      name: `Route ${index}`,
      enabled: true,
      groupId: "g1",
      filters: [],
      ast,
      targets: [{ platform: "discord", channelId: "1" }],
    };
  });
}

/** Evaluates a path with jsonpath-plus, the general-purpose library the engine is measured against. */
function resolvePathNaively(path: string, doc: unknown): unknown[] {
  const found = JSONPath({
    path: normalizePath(path),
    json: doc as object,
    wrap: true,
    eval: "safe",
  });
  return Array.isArray(found) ? found : [];
}

/** Evaluates a tree with nothing prepared: jsonpath-plus and operand setup on every leaf. */
function naiveMatch(node: FilterNode, event: BenchEvent): boolean {
  if ("all" in node) return node.all.every((child) => naiveMatch(child, event));
  if ("any" in node) return node.any.some((child) => naiveMatch(child, event));
  if ("not" in node) return !naiveMatch(node.not, event);
  if (node.type === "event") return compileEventFilter(node.value)(event.kind, event.action);
  const op = node.op ?? "eq";
  const test = compileValueTest(node, op);
  const negated = op === "ne" || (op === "exists" && node.value === false);
  const budget = new EvaluationBudget(Number.MAX_SAFE_INTEGER);
  const found = flattenValues(resolvePathNaively(node.path, event.payload)).some((value) =>
    test(value, budget)
  );
  return found !== negated;
}

/** Fires the route set's candidates for one event; returns how many fired. */
function matchRouteSet(routes: CompiledRoutes, event: BenchEvent): number {
  const set = routes.routeSet;
  const memo = set.newMemo();
  const input = { ...event, budget: new EvaluationBudget(), memo };
  let fired = 0;
  for (const position of set.candidates(event.kind)) if (set.matches(position, input)) fired++;
  return fired;
}

function checkAgreement(routes: CompiledRoutes, nodes: FilterNode[], events: BenchEvent[]) {
  const set = routes.routeSet;
  for (const event of events) {
    const memo = set.newMemo();
    const input = { ...event, budget: new EvaluationBudget(), memo };
    const candidates = new Set(set.candidates(event.kind));
    nodes.forEach((node, index) => {
      const naive = naiveMatch(node, event);
      const viaSet = candidates.has(index) && set.matches(index, input);
      if (viaSet !== naive || routes[index].matches(event) !== naive) {
        throw new Error(`route set, compiled and naive disagree on route ${index} (${event.kind})`);
      }
    });
  }
}

interface Timing {
  meanUs: number;
  p50Us: number;
  p75Us: number;
  p99Us: number;
}

/** Runs `fn` over the events for about `ms` milliseconds after a warm-up; times each call. */
async function time(events: BenchEvent[], ms: number, fn: (event: BenchEvent) => unknown) {
  for (let i = 0; i < Math.min(2_000, events.length * 4); i++) await fn(events[i % events.length]);
  const samples: number[] = [];
  const deadline = performance.now() + ms;
  let cursor = 0;
  while (performance.now() < deadline) {
    for (let i = 0; i < 100; i++) {
      const started = performance.now();
      await fn(events[cursor++ % events.length]);
      samples.push(performance.now() - started);
    }
  }
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * p))];
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return {
    meanUs: mean * 1000,
    p50Us: at(0.5) * 1000,
    p75Us: at(0.75) * 1000,
    p99Us: at(0.99) * 1000,
  } as Timing;
}

function compileMs(routes: Route[]): number {
  const runs: number[] = [];
  for (let i = 0; i < 7; i++) {
    const started = performance.now();
    compileRoutes(routes);
    runs.push(performance.now() - started);
  }
  return runs.sort((a, b) => a - b)[3];
}

const events = await loadFixtures();
if (events.length === 0) throw new Error(`no fixture payloads in ${FIXTURES.pathname}`);
const seconds = Number(Deno.args[0] ?? 2) || 2;

const routes200 = buildRoutes(200);
const routes1000 = buildRoutes(1000);
const nodes200 = routes200.map(routeFilterNode);
const compiled200 = compileRoutes(routes200);
const compiled1000 = compileRoutes(routes1000);
checkAgreement(compiled200, nodes200, events);
checkAgreement(compiled1000, routes1000.map(routeFilterNode), events);
const perRoute = nodes200.map(compile);
const group: Group = { id: "g1", name: "g1", members: [] };
const firedPerEvent = events.reduce((sum, event) => sum + matchRouteSet(compiled200, event), 0) /
  events.length;

const results: BenchResult[] = [];
function record(metric: string, timing: Timing, routes: number) {
  results.push(
    { bench: "filter", metric: `${metric}.mean`, value: timing.meanUs, unit: "us", routes },
    { bench: "filter", metric: `${metric}.p50`, value: timing.p50Us, unit: "us", routes },
    { bench: "filter", metric: `${metric}.p75`, value: timing.p75Us, unit: "us", routes },
    { bench: "filter", metric: `${metric}.p99`, value: timing.p99Us, unit: "us", routes },
  );
  return timing;
}
const ms = seconds * 1000;
const rows: [string, Timing][] = [
  [
    "route set, 200 routes (shared leaves, kind index)",
    record("route_set_200", await time(events, ms, (e) => matchRouteSet(compiled200, e)), 200),
  ],
  [
    "route set, 1,000 routes",
    record("route_set_1000", await time(events, ms, (e) => matchRouteSet(compiled1000, e)), 1000),
  ],
  [
    "selectRoutes, 200 routes of one group",
    record(
      "select_200",
      await time(
        events,
        ms,
        (e) => selectRoutes({ ...e, provider: "github" }, { type: "global" }, compiled200, [group]),
      ),
      200,
    ),
  ],
  [
    "each route's own compiled filter, 200 routes",
    record(
      "per_route_200",
      await time(events, ms, (e) => {
        for (const matches of perRoute) matches(e);
      }),
      200,
    ),
  ],
  [
    "naive, 200 routes (jsonpath-plus per leaf)",
    record(
      "naive_200",
      await time(events, ms / 2, (e) => {
        for (const node of nodes200) naiveMatch(node, e);
      }),
      200,
    ),
  ],
];
const compile1000 = compileMs(routes1000);
results.push({ bench: "filter", metric: "compile_1000", value: compile1000, unit: "ms" });

const us = (value: number) => `${value.toFixed(1)} µs`;
console.log(
  `filter bench: ${events.length} fixture events, ${firedPerEvent.toFixed(1)} of 200 routes ` +
    `fire per event; ${compiled200.routeSet.leafCount} distinct leaves in 200 routes, ` +
    `${compiled1000.routeSet.leafCount} in 1,000\n`,
);
console.log("| evaluation | mean per event | p50 | p75 | p99 |\n|---|---|---|---|---|");
for (const [name, timing] of rows) {
  console.log(
    `| ${name} | ${us(timing.meanUs)} | ${us(timing.p50Us)} | ${us(timing.p75Us)} | ` +
      `${us(timing.p99Us)} |`,
  );
}
console.log(`\ncompileRoutes, 1,000 routes: ${compile1000.toFixed(1)} ms (median of 7)\n`);
printResults(results);
