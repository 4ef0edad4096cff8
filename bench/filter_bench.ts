/**
 * Filter engine benchmark: 200 routes of realistic trees (3-6 leaves, mixed operators, `[*]`
 * paths; a third test the event first, a third last, a third only payload fields) over the
 * real GitHub fixture payloads, compiled once, against the same trees
 * evaluated naively (jsonpath-plus and operand preparation on every leaf of every event).
 *
 *   deno bench -A bench/filter_bench.ts
 *
 * The payloads are the repository's GitHub webhook examples in `fixtures/github/` (one folder
 * per event, one file per example).
 */
import { compile, routeFilterNode } from "../lib/filter/compile.ts";
import { compileValueTest } from "../lib/filter/field_filter.ts";
import { compileEventFilter } from "../lib/filter/event_filter.ts";
import { JSONPath } from "jsonpath-plus";
import { normalizePath } from "../lib/filter/path.ts";
import { flattenValues } from "../lib/filter/values.ts";
import type { FieldFilter, FilterNode, Route } from "../lib/types.ts";

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
  const found = flattenValues(resolvePathNaively(node.path, event.payload)).some(test);
  return found !== negated;
}

const events = await loadFixtures();
if (events.length === 0) throw new Error(`no fixture payloads in ${FIXTURES.pathname}`);

const routes = buildRoutes(200);
const nodes = routes.map(routeFilterNode);
const compiled = nodes.map(compile);
for (const event of events) {
  compiled.forEach((matches, index) => {
    if (matches(event) !== naiveMatch(nodes[index], event)) {
      throw new Error(`compiled and naive disagree on route ${index} for ${event.kind}`);
    }
  });
}
const fired = events.map((event) => compiled.filter((matches) => matches(event)).length);
console.log(
  `filter bench: ${events.length} fixture events, 200 routes, ` +
    `${fired.reduce((sum, count) => sum + count, 0) / events.length} routes fire per event`,
);

let compiledCursor = 0;
Deno.bench({
  name: "compiled: one event against 200 routes",
  group: "filter",
  baseline: true,
  fn() {
    const event = events[compiledCursor++ % events.length];
    for (const matches of compiled) matches(event);
  },
});

let naiveCursor = 0;
Deno.bench({
  name: "naive: one event against 200 routes (jsonpath-plus per leaf)",
  group: "filter",
  fn() {
    const event = events[naiveCursor++ % events.length];
    for (const node of nodes) naiveMatch(node, event);
  },
});
