/**
 * `POST /admin/api/test-match` and route saving against hostile input: paths that would run
 * code are refused (400), huge and deep payloads get a bounded answer or a clear 422, never a
 * 500 or a silent "no values", and events are named exactly as live routing names them.
 */
import assert from "node:assert/strict";
import { getRoutes } from "../../lib/store/config/routes.ts";
import { trialEventName } from "../../lib/admin/test_match.ts";
import { custom } from "../../lib/providers/custom.ts";
import { gitea } from "../../lib/providers/gitea.ts";
import { github } from "../../lib/providers/github.ts";
import type { Provider } from "../../lib/types.ts";
import { type AdminApp, route, startAdminApp } from "../_admin_helpers.ts";

const TEST_MATCH = "/admin/api/test-match";
const HOSTILE = "$[k,?(@.n.match('a*a*a*a*a*a*a*a*a*a*b'))]";

/** Posts a raw JSON text (for payloads built as text) as the viewer. */
async function postText(app: AdminApp, text: string) {
  const res = await app.t.fetch(TEST_MATCH, {
    method: "POST",
    headers: { cookie: await app.cookie("viewer"), "content-type": "application/json" },
    body: text,
  });
  return { status: res.status, body: await res.json() };
}

function wideObject(keys: number): Record<string, number> {
  const wide: Record<string, number> = {};
  for (let index = 0; index < keys; index++) wide[`k${index}`] = index;
  return wide;
}

Deno.test("test-match refuses a hostile union path with 400", async () => {
  await using app = await startAdminApp();
  const answer = await app.call("viewer", "POST", TEST_MATCH, {
    body: {
      node: { type: "field", path: HOSTILE, op: "exists" },
      payload: { k: 1, n: "a".repeat(40) },
    },
  });
  assert.equal(answer.status, 400);
  assert.equal(
    answer.body.error,
    `node.path: invalid JSONPath: expression "@.n.match('a*a*a*a*a*a*a*a*a*a*b')": ` +
      "function calls are not allowed",
  );
});

Deno.test("saving a route with a hostile union path is refused with 400", async () => {
  await using app = await startAdminApp();
  const hostile = route("alpha", "r1", {
    filters: [{ type: "field", path: HOSTILE, op: "exists" }],
  });
  const answer = await app.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes: [hostile] },
  });
  assert.equal(answer.status, 400);
  assert.match(answer.body.error, /^routes\[0\]\.filters\[0\]\.path: invalid JSONPath: .*function/);
  const nested = route("alpha", "r1", {
    ast: { any: [{ not: { type: "field", path: "$..[0,?(@.a.toString())]", value: 1 } }] },
  });
  const again = await app.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes: [nested] },
  });
  assert.equal(again.status, 400);
  assert.match(again.body.error, /^routes\[0\]\.ast\.any\[0\]\.not\.path: invalid JSONPath/);
  assert.deepEqual((await getRoutes(app.kv)).routes, []);
});

Deno.test("test-match: $..* over a 90,000-key payload answers a bounded explanation", async () => {
  await using app = await startAdminApp();
  const answer = await app.call("viewer", "POST", TEST_MATCH, {
    body: {
      node: { type: "field", path: "$..*", op: "eq", value: 89_999 },
      payload: wideObject(90_000),
    },
  });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.matched, true);
  assert.deepEqual(answer.body.explanation, {
    kind: "field",
    path: "$..*",
    op: "eq",
    expected: 89_999,
    matched: true,
    reason: "$..* eq 89999: value 89999 equals it",
    values: [0, 1, 2, 3, 4],
    valueCount: 90_000,
  });
});

Deno.test("test-match: filters that need more than the budget answer 422", async () => {
  await using app = await startAdminApp();
  const everything = { type: "field", path: "$..*", op: "ne", value: -1 };
  const answer = await app.call("viewer", "POST", TEST_MATCH, {
    body: { node: { all: [everything, everything, everything] }, payload: wideObject(90_000) },
  });
  assert.equal(answer.status, 422);
  assert.match(
    answer.body.error,
    /^the filters could not be evaluated: path \$\.\.\*: evaluation budget exceeded \(more than \d+ steps for one event\)$/,
  );
});

Deno.test("test-match: a 10,000-deep payload is summarized, and a deep sibling hides nothing", async () => {
  await using app = await startAdminApp();
  const depth = 10_000;
  const deepObject = '{"n":'.repeat(depth) + "1" + "}".repeat(depth);
  const deepArray = "[".repeat(depth) + "1" + "]".repeat(depth);
  for (const [deep, summary] of [[deepObject, "object(1 key)"], [deepArray, "array(1)"]]) {
    const payload = `{"deep":${deep},"b":1}`;
    const field = await postText(
      app,
      `{"node":{"type":"field","path":"deep","value":"x"},"payload":${payload}}`,
    );
    assert.equal(field.status, 200);
    assert.deepEqual(field.body.explanation.values, [summary]);
    assert.equal(
      field.body.explanation.reason,
      `deep eq "x": no value equals it (values: ${summary})`,
    );
    for (
      const node of [
        '{"type":"field","path":"$..b","op":"exists","value":false}',
        '{"type":"field","path":"$..b","op":"ne","value":1}',
      ]
    ) {
      const sibling = await postText(app, `{"node":${node},"payload":${payload}}`);
      assert.equal(sibling.status, 200);
      assert.equal(sibling.body.matched, false, `${node} sees b next to the deep value`);
      assert.equal(sibling.body.explanation.valueCount, 1);
    }
  }
});

async function trial(app: AdminApp, body: Record<string, unknown>) {
  const answer = await app.call("viewer", "POST", TEST_MATCH, { body });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

Deno.test("test-match names the event as live routing does: the payload's action counts", async () => {
  await using app = await startAdminApp();
  const opened = { type: "event", value: "pull_request.opened" };
  const prOpened = await trial(app, {
    node: opened,
    event: "pull_request",
    payload: { action: "opened", number: 1 },
  });
  assert.equal(prOpened.matched, true);
  assert.equal(prOpened.explanation.event, "pull_request.opened");
  const named = await trial(app, {
    node: opened,
    event: "pull_request.closed",
    payload: { action: "opened" },
  });
  assert.equal(named.matched, false, "an action named in event wins");
  const customAction = await trial(app, {
    node: { type: "event", value: "custom.deployed" },
    payload: { action: "deployed" },
  });
  assert.equal(customAction.matched, true);
  const giteaSync = await trial(app, {
    node: { type: "event", value: "pull_request.synchronize" },
    event: "pull_request_sync",
    provider: "gitea",
    payload: { action: "synchronized" },
  });
  assert.equal(giteaSync.matched, true);
  assert.equal(giteaSync.explanation.event, "pull_request.synchronize");
  const inherited = await trial(app, {
    node: { type: "event", value: "constructor.constructor" },
    event: "constructor",
    provider: "gitea",
    payload: { action: "constructor" },
  });
  assert.equal(inherited.matched, true, "a name like constructor maps to itself");
  const bad = await app.call("viewer", "POST", TEST_MATCH, {
    body: { node: opened, event: "pull request", payload: {} },
  });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error, /^event: expected kind or kind\.action/);
});

Deno.test("test-match and the ingress name events with the same function", () => {
  const adapters = { github, gitea, custom } as const;
  const headers = { github: "x-github-event", gitea: "x-gitea-event", custom: "x-custom" };
  const cases: [Provider, string, Record<string, unknown>][] = [
    ["github", "pull_request", { action: "opened" }],
    ["github", "push", {}],
    ["github", "issues", { action: "" }],
    ["gitea", "pull_request_sync", { action: "synchronized" }],
    ["gitea", "release", { action: "updated" }],
    ["gitea", "issue_label", { action: "label_cleared" }],
    ["gitea", "constructor", { action: "toString" }],
    ["custom", "custom", { action: "deployed" }],
    ["custom", "custom", { action: 5 }],
  ];
  for (const [provider, event, payload] of cases) {
    const live = adapters[provider].eventName(
      new Headers({ [headers[provider]]: event }),
      payload,
    );
    assert.deepEqual(trialEventName({ event, provider, payload }), live, `${provider} ${event}`);
  }
});
