/**
 * Rejected webhook requests: each refusal is recorded with its reason in words and what to
 * change (and the answer says it in `X-Switchyard-Hint`), sampled per group and minute and
 * capped per list, so a flood of anonymous requests leaves at most the cap in the store; a
 * group's owners and admins see only their group's list, a super admin the global one.
 */
import assert from "node:assert/strict";
import { utf8 } from "../../lib/encoding.ts";
import { HINT_HEADER } from "../../lib/ingest/answers.ts";
import { REJECTIONS_PER_MINUTE } from "../../lib/ingest/rejection_sampler.ts";
import { signCustomBody } from "../../lib/providers/custom.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import { rejectionsPrefix } from "../../lib/store/keys.ts";
import { MAX_REJECTIONS_KEPT } from "../../lib/store/telemetry/rejections.ts";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import { type AdminApp, startAdminApp } from "../_admin_helpers.ts";

async function withSecret(app: AdminApp, groupId = "alpha", caller = "owner" as const) {
  const who = groupId === "alpha" ? caller : "otherOwner";
  const answer = await app.call(who, "POST", `/admin/api/groups/${groupId}/webhook/regenerate`);
  assert.equal(answer.status, 200);
  return answer.body.secret as string;
}

function post(app: AdminApp, path: string, headers: Record<string, string>, body: BodyInit) {
  return app.t.fetch(path, { method: "POST", headers, body });
}

const PUSH = JSON.stringify({ ref: "refs/heads/main", commits: [] });

async function githubHeaders(secret: string, body: string, extra: Record<string, string> = {}) {
  return {
    "content-type": "application/json",
    "x-github-event": "push",
    "x-github-delivery": crypto.randomUUID(),
    "x-hub-signature-256": await signGithubBody(secret, utf8(body)),
    "user-agent": "GitHub-Hookshot/abc",
    ...extra,
  };
}

async function storedCount(app: AdminApp, groupId?: string): Promise<number> {
  const scope = groupId === undefined ? { type: "global" as const } : {
    type: "group" as const,
    internalId: (await readGroupEntry(app.kv, groupId)).entry!.internalId,
  };
  let count = 0;
  for await (const _ of app.kv.list({ prefix: rejectionsPrefix(scope) })) count++;
  return count;
}

Deno.test("rejections: each reason is recorded with words, a fix and the hint header", async () => {
  await using app = await startAdminApp();
  const secret = await withSecret(app);
  const cases: { reason: string; send: () => Promise<Response> }[] = [
    {
      reason: "bad_signature",
      send: async () =>
        post(app, "/webhook/alpha", await githubHeaders("not-the-secret", PUSH), PUSH),
    },
    {
      reason: "missing_headers",
      send: () => post(app, "/webhook/alpha", { "content-type": "application/json" }, PUSH),
    },
    {
      reason: "not_json",
      send: async () =>
        post(
          app,
          "/webhook/alpha",
          await githubHeaders(secret, "ref=main", {
            "content-type": "text/plain",
          }),
          "ref=main",
        ),
    },
    {
      reason: "form_without_payload",
      send: async () =>
        post(
          app,
          "/webhook/alpha",
          await githubHeaders(secret, "other=1", {
            "content-type": "application/x-www-form-urlencoded",
          }),
          "other=1",
        ),
    },
    {
      reason: "too_large",
      send: () =>
        post(app, "/webhook/alpha", { "content-type": "application/json" }, "x".repeat(2_000_000)),
    },
    {
      reason: "unknown_event",
      send: async () => {
        const headers: Record<string, string> = await githubHeaders(secret, PUSH);
        delete headers["x-github-event"];
        return post(app, "/webhook/alpha", headers, PUSH);
      },
    },
    {
      reason: "bad_delivery_id",
      send: async () =>
        post(
          app,
          "/webhook/alpha",
          await githubHeaders(secret, PUSH, { "x-github-delivery": "d".repeat(300) }),
          PUSH,
        ),
    },
    {
      reason: "replayed_nonce",
      send: async () => {
        const body = JSON.stringify({ hello: "world" });
        const replay = { timestamp: Math.floor(Date.now() / 1000), nonce: "nonce-1" };
        const headers = {
          "content-type": "application/json",
          "x-switchyard-signature": await signCustomBody(secret, utf8(body), replay),
          "x-switchyard-timestamp": String(replay.timestamp),
          "x-switchyard-nonce": replay.nonce,
        };
        const first = await post(app, "/webhook/alpha", headers, body);
        assert.equal(first.status, 200);
        await first.body?.cancel();
        return post(app, "/webhook/alpha", headers, body);
      },
    },
  ];
  for (const { reason, send } of cases) {
    const res = await send();
    assert.ok(res.status >= 400 && res.status < 500, `${reason}: ${res.status}`);
    assert.ok(res.headers.get(HINT_HEADER), `${reason}: hint header`);
    await res.body?.cancel();
  }
  const list = await app.call("admin", "GET", "/admin/api/groups/alpha/rejections");
  assert.equal(list.status, 200);
  const reasons = list.body.items.map((item: { reason: string }) => item.reason).reverse();
  assert.deepEqual(reasons, cases.map((item) => item.reason));
  const bad = list.body.items.find((item: { reason: string }) => item.reason === "bad_signature");
  assert.match(bad.words, /the secret in the sender's settings does not match/);
  assert.match(bad.fix, /Paste the group's current secret/);
  assert.equal(bad.provider, "github");
  assert.equal(bad.event, "push");
  assert.equal(bad.userAgent, "GitHub-Hookshot/abc");
  assert.equal(bad.status, 401);
  assert.ok(!JSON.stringify(list.body).includes(secret), "no secret in the list");
  assert.ok(!JSON.stringify(list.body).includes("refs/heads/main"), "no body in the list");

  // An unknown group and the instance-wide ingress go to the global list (super admin only).
  const unknown = await post(app, "/webhook/nobody", { "content-type": "application/json" }, PUSH);
  assert.equal(unknown.status, 404);
  assert.match(unknown.headers.get(HINT_HEADER)!, /Payload URL/);
  await unknown.body?.cancel();
  const global = await app.call("superAdmin", "GET", "/admin/api/rejections");
  assert.equal(global.status, 200);
  assert.equal(global.body.items[0].reason, "unknown_group");
  assert.equal(global.body.items[0].unknownGroup, "nobody");
  assert.equal((await app.call("owner", "GET", "/admin/api/rejections")).status, 403);
});

Deno.test("rejections: stored header values are bounded and the body is never kept", async () => {
  await using app = await startAdminApp();
  await withSecret(app);
  const res = await post(app, "/webhook/alpha", {
    "content-type": "application/json",
    "x-github-event": "e".repeat(5_000),
    "x-hub-signature-256": "sha256=00",
    "user-agent": "u".repeat(5_000),
    "x-forwarded-for": `${"1".repeat(500)}, 10.0.0.1`,
  }, JSON.stringify({ secret_field: "body-must-not-be-kept" }));
  assert.equal(res.status, 401);
  await res.body?.cancel();
  const [item] = (await app.call("owner", "GET", "/admin/api/groups/alpha/rejections")).body.items;
  assert.equal(item.reason, "bad_signature");
  assert.ok(item.userAgent.length <= 200);
  assert.ok(item.event.length <= 100);
  assert.ok(item.forwardedFor.length <= 64);
  for await (const entry of app.kv.list({ prefix: ["rejections"] })) {
    assert.ok(JSON.stringify(entry.value).length < 1_000);
    assert.ok(!JSON.stringify(entry.value).includes("body-must-not-be-kept"));
  }
});

Deno.test("rejections: a flood of anonymous bad requests leaves at most the sampled share, counted in /metrics", async () => {
  await using app = await startAdminApp({ METRICS_TOKEN: "metrics-token-0123456789" });
  await withSecret(app);
  const flood = MAX_REJECTIONS_KEPT * 3;
  const realNow = Date.now;
  const start = Date.UTC(2026, 0, 1);
  Date.now = () => start;
  using _clock = { [Symbol.dispose]: () => Date.now = realNow };
  for (let index = 0; index < flood; index++) {
    const res = await post(app, "/webhook/alpha", { "x-hub-signature-256": "sha256=00" }, "{}");
    assert.equal(res.status, 401);
    await res.body?.cancel();
    const lost = await post(app, `/webhook/g${index}`, {}, "{}");
    assert.equal(lost.status, 404);
    await lost.body?.cancel();
  }
  assert.equal(await storedCount(app, "alpha"), REJECTIONS_PER_MINUTE);
  assert.equal(await storedCount(app), REJECTIONS_PER_MINUTE);
  const metrics = await (await app.t.fetch("/metrics", {
    headers: { authorization: "Bearer metrics-token-0123456789" },
  })).text();
  assert.match(
    metrics,
    new RegExp(
      `switchyard_ingest_rejections_total\\{reason="bad_signature",kept="false"\\} ${
        flood - REJECTIONS_PER_MINUTE
      }`,
    ),
  );
});

Deno.test("rejections: a list keeps at most its cap, oldest dropped", async () => {
  await using app = await startAdminApp();
  await withSecret(app);
  let now = Date.UTC(2026, 0, 1);
  const realNow = Date.now;
  try {
    Date.now = () => now;
    for (let minute = 0; minute * REJECTIONS_PER_MINUTE < MAX_REJECTIONS_KEPT + 20; minute++) {
      for (let index = 0; index < REJECTIONS_PER_MINUTE; index++) {
        const res = await post(app, "/webhook/alpha", { "x-hub-signature-256": "sha256=00" }, "{}");
        await res.body?.cancel();
        now += 10;
      }
      now += 60_000;
    }
  } finally {
    Date.now = realNow;
  }
  assert.equal(await storedCount(app, "alpha"), MAX_REJECTIONS_KEPT);
  const list = await app.call("owner", "GET", "/admin/api/groups/alpha/rejections");
  assert.equal(list.body.items.length, MAX_REJECTIONS_KEPT);
  assert.ok(list.body.items[0].at > list.body.items.at(-1).at, "newest first");
});

Deno.test("rejections: group A never sees group B's list; viewers see none", async () => {
  await using app = await startAdminApp();
  await withSecret(app, "alpha");
  await withSecret(app, "beta");
  const res = await post(app, "/webhook/beta", { "x-hub-signature-256": "sha256=00" }, "{}");
  assert.equal(res.status, 401);
  await res.body?.cancel();
  const alpha = await app.call("owner", "GET", "/admin/api/groups/alpha/rejections");
  assert.equal(alpha.body.items.length, 0);
  assert.equal((await app.call("owner", "GET", "/admin/api/groups/beta/rejections")).status, 403);
  assert.equal((await app.call("viewer", "GET", "/admin/api/groups/alpha/rejections")).status, 403);
  const beta = await app.call("otherOwner", "GET", "/admin/api/groups/beta/rejections");
  assert.equal(beta.body.items.length, 1);
  const global = await app.call("superAdmin", "GET", "/admin/api/rejections");
  assert.equal(global.body.items.length, 0, "a known group's refusals stay in its own list");
});
