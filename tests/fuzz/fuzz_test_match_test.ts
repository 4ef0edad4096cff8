/**
 * Fuzzing test-match and preview: generated filter trees (valid and not: any depth, size,
 * operator, JSONPath and regular expression) against hostile payloads, and hostile events
 * through the message formatters. Never a 5xx or a crash; neither endpoint writes anything.
 */
import fc from "fast-check";
import { FIELD_OPS } from "../../lib/routing/validate.ts";
import { startAdminApp } from "../_admin_helpers.ts";
import { hostileJson, hostileString } from "../fuzz_arbitraries.ts";
import { fuzz, type FuzzApp, FuzzBench } from "../fuzz_harness.ts";

async function startConsole(): Promise<FuzzApp & { cookie: string }> {
  const admin = await startAdminApp();
  const cookie = await admin.cookie("viewer");
  return {
    kv: admin.kv,
    cookie,
    fetch: (request) => admin.t.app.fetch(request),
    [Symbol.asyncDispose]: () => admin[Symbol.asyncDispose](),
  };
}

const jsonPath = fc.oneof(
  fc.constantFrom(
    "$",
    "$.ref",
    "ref",
    "$..*",
    "$..",
    "$.commits[*].message",
    "$.pull_request.labels[*].name",
    "$[?(@.x)]",
    "$['__proto__']",
    "$.constructor.prototype",
    "$[-1:]",
    "$[0:100000:0]",
    "$.a.b.c.d.e.f.g.h.i.j",
    "$.*.*.*.*.*",
    "$[",
    "$.'",
    "",
  ),
  hostileString,
);

const pattern = fc.oneof(
  fc.constantFrom(
    "(a+)+$",
    "(a|a)*b",
    "^(\\w+\\s?)*$",
    "(?=a)b",
    "(?<n>a)\\k<n>",
    "\\",
    "[",
    "a{1,100000}",
    "\\p{L}+",
    "(?i)main",
    ".*.*.*.*.*x",
  ),
  hostileString,
);

/** Mostly valid, sometimes hostile: reaches the evaluator, and pokes the validator. */
function mostly<T>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: hostile });
}

const comparable = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("2026-01-01T00:00:00Z", "10", "1e3", "main", "refs/heads/main"),
);

const eventFilter = fc.record({
  type: fc.constant("event"),
  value: mostly(
    fc.oneof(
      fc.constantFrom("push", "pull_request.*", "*", "custom", "pull_request.opened"),
      fc.array(fc.constantFrom("push", "issues", "*"), { minLength: 1, maxLength: 4 }),
    ),
    fc.oneof(hostileString, hostileJson),
  ),
});

const fieldFilter = fc.record({
  type: fc.constant("field"),
  path: mostly(fc.constantFrom("$.ref", "ref", "$..*", "$.commits[*].message", "$.a.b"), jsonPath),
  op: mostly(fc.constantFrom(...FIELD_OPS), hostileString),
  value: mostly(
    fc.oneof(comparable, pattern, fc.array(comparable, { maxLength: 5 })),
    hostileJson,
  ),
  caseSensitive: mostly(fc.boolean(), hostileJson),
}, { requiredKeys: ["type", "path"] });

/** A field filter whose operator and value go together (the evaluator's inputs). */
const consistentField = fc.tuple(
  fc.constantFrom("$.ref", "ref", "$..*", "$.commits[*].message", "$.a.b", "$..name"),
  fc.oneof(
    fc.tuple(fc.constantFrom("eq", "ne"), comparable),
    fc.tuple(fc.constantFrom("contains", "startsWith", "endsWith"), fc.string({ minLength: 1 })),
    fc.tuple(
      fc.constant("regex"),
      fc.constantFrom("(a+)+$", "^refs/", "a|b", "\\d{2,}", "(?i)MAIN"),
    ),
    fc.tuple(
      fc.constantFrom("gt", "gte", "lt", "lte"),
      fc.oneof(fc.integer(), fc.constant("2026-01-01T00:00:00Z")),
    ),
    fc.tuple(fc.constant("in"), fc.array(comparable, { minLength: 1, maxLength: 4 })),
    fc.tuple(fc.constant("exists"), fc.boolean()),
  ),
  fc.boolean(),
).map(([path, [op, value], caseSensitive]) => ({ type: "field", path, op, value, caseSensitive }));

const filterTree: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 3, arbitrary: fc.oneof(eventFilter, consistentField, consistentField, fieldFilter) },
    { weight: 1, arbitrary: fc.record({ all: fc.array(tie("node"), { maxLength: 5 }) }) },
    { weight: 1, arbitrary: fc.record({ any: fc.array(tie("node"), { maxLength: 5 }) }) },
    { weight: 1, arbitrary: fc.record({ not: tie("node") }) },
  ),
})).node;

/** A tree past the limits: deeper than 8 or with more than 64 leaves. */
const oversizedTree = fc.oneof(
  fc.integer({ min: 9, max: 400 }).map((depth) => {
    let node: unknown = { type: "event", value: "push" };
    for (let i = 0; i < depth; i++) node = { not: node };
    return node;
  }),
  fc.integer({ min: 65, max: 2_000 }).map((leaves) => ({
    any: Array.from(
      { length: leaves },
      () => ({ type: "field", path: "$..*", op: "regex", value: "(a+)+$" }),
    ),
  })),
);

/** Payloads: hostile JSON, deep nesting, wide arrays. */
const payload = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), hostileJson, { maxKeys: 6 }),
  },
  { weight: 1, arbitrary: hostileJson },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 3_000 }).map((depth) => {
      let value: unknown = "a".repeat(30) + "!";
      for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
      return { deep: value };
    }),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 10_000 }).map((n) => ({
      commits: Array.from({ length: n }, (_, i) => ({ message: "a".repeat(i % 50) })),
    })),
  },
);

const eventName = mostly(
  fc.constantFrom("push", "pull_request.opened", "issues", "custom", "release.published", "ping"),
  fc.oneof(hostileString, hostileJson),
);

function post(app: FuzzApp, path: string, body: unknown): Request {
  const { cookie } = app as FuzzApp & { cookie: string };
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body) ?? "null",
  });
}

Deno.test("fuzz: test-match filter trees and payloads", async () => {
  await using bench = new FuzzBench(startConsole, "test-match");
  const body = fc.record({
    node: fc.oneof({ weight: 5, arbitrary: filterTree }, { weight: 1, arbitrary: oversizedTree }),
    filters: fc.array(fc.oneof(eventFilter, consistentField, fieldFilter), { maxLength: 8 }),
    shape: mostly(fc.constantFrom("node", "filters"), fc.constantFrom("both", "neither")),
    event: eventName,
    provider: mostly(fc.constantFrom("github", "gitea", "custom"), hostileString),
    payload,
  }, { requiredKeys: ["shape", "payload"] }).map(({ node, filters, shape, ...rest }) => ({
    ...rest,
    ...(shape === "node" || shape === "both" ? { node } : {}),
    ...(shape === "filters" || shape === "both" ? { filters } : {}),
  }));
  await fuzz(body, (b) => bench.send((app) => post(app, "/admin/api/test-match", b)));
});

Deno.test("fuzz: message preview of hostile events", async () => {
  await using bench = new FuzzBench(startConsole, "preview");
  const body = fc.record({
    event: eventName,
    provider: mostly(fc.constantFrom("github", "gitea", "custom"), hostileString),
    payload,
    discordRoleIds: fc.oneof(
      fc.array(fc.stringMatching(/^\d{1,20}$/), { maxLength: 3 }),
      hostileJson,
    ),
  }, { requiredKeys: ["payload"] });
  await fuzz(body, (b) => bench.send((app) => post(app, "/admin/api/preview", b)));
});
