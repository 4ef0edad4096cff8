import assert from "node:assert/strict";
import { handleWebhook } from "../../lib/ingest/handle.ts";
import { isDeliverJob, loadEvent, loadEventBody } from "../../lib/store/delivery/events.ts";
import { dedupKey, eventKey } from "../../lib/store/keys.ts";
import { utf8 } from "../../lib/encoding.ts";
import {
  fixture,
  githubRequest,
  jsonBytes,
  keysUnder,
  NOW,
  onlyEventId,
  SECRETS,
  send,
  testDeps,
  webhookRequest,
  withKv,
} from "../_ingest_helpers.ts";
import { listJobs } from "../../lib/store/delivery/jobs.ts";
import { onlyOn, openTestKv } from "../../testing/test_store.ts";

const DELIVERY = "72d3162e-cc78-11e3-81ab-4c9367dc0958";

Deno.test("github: a signed pull_request is stored, marked and its job added before { ok: true }", async () => {
  await using kv = await openTestKv();
  try {
    const body = await fixture("pull_request/opened.payload.json");
    const res = await send(testDeps(kv), await githubRequest(body, { delivery: DELIVERY }));
    assert.deepEqual(res, { status: 200, body: { ok: true } });

    const eventId = await onlyEventId(kv);
    const event = await loadEvent(kv, eventId);
    assert.ok(event);
    assert.equal(event.provider, "github");
    assert.equal(event.kind, "pull_request");
    assert.equal(event.action, "opened");
    assert.equal(event.deliveryId, DELIVERY);
    assert.deepEqual(event.scope, { type: "global" });
    assert.equal(event.receivedAt, NOW);
    assert.deepEqual(event.payload, JSON.parse(new TextDecoder().decode(body)));
    assert.deepEqual(event.headers, {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/abc123",
      "x-github-event": "pull_request",
      "x-github-delivery": DELIVERY,
    });
    assert.deepEqual(await loadEventBody(kv, eventId), body);
    const record = await kv.get<{ chunkCount: number; inline?: Uint8Array }>(eventKey(eventId));
    assert.equal(record.value?.chunkCount, 0, "a compressed payload this small is kept inline");
    assert.ok(record.value?.inline);

    const mark = await kv.get<{ seenAt: number; eventId: string }>(
      dedupKey({ type: "global" }, "github", DELIVERY),
    );
    assert.deepEqual(mark.value, { seenAt: NOW, eventId });

    const jobs = (await listJobs(kv)).map((job) => job.value.message);
    assert.deepEqual(jobs, [{ type: "deliver", eventId }]);
    assert.ok(isDeliverJob(jobs[0]));
  } finally {
    kv.close();
  }
});

Deno.test("github: the previous secret still verifies during a rotation", async () => {
  await withKv(async (kv) => {
    const body = await fixture("push/payload.json");
    const res = await send(
      testDeps(kv),
      await githubRequest(body, { event: "push", secret: SECRETS.github[1] }),
    );
    assert.deepEqual(res, { status: 200, body: { ok: true } });
    const event = await loadEvent(kv, await onlyEventId(kv));
    assert.equal(event?.kind, "push");
    assert.equal(event?.action, undefined);
  });
});

Deno.test("github: bad, missing and foreign signatures are 401 Invalid signature", async (t) => {
  const body = await fixture("pull_request/opened.payload.json");
  const invalid = { status: 401, body: { error: "Invalid signature" } };
  const cases: Record<string, () => Promise<Request>> = {
    "wrong secret": () => githubRequest(body, { secret: "not-the-secret" }),
    "gitea's secret": () => githubRequest(body, { secret: SECRETS.gitea[0] }),
    "tampered body": async () => {
      const signed = await githubRequest(body);
      const tampered = new Uint8Array(body);
      tampered[10] ^= 1;
      return webhookRequest(tampered, Object.fromEntries(signed.headers));
    },
    "missing header": () =>
      Promise.resolve(webhookRequest(body, { "x-github-event": "pull_request" })),
    "empty header": () =>
      Promise.resolve(
        webhookRequest(body, { "x-github-event": "pull_request", "x-hub-signature-256": "" }),
      ),
    "bare hex without sha256=": async () => {
      const signed = await githubRequest(body);
      const hex = signed.headers.get("x-hub-signature-256")!.slice(7);
      return webhookRequest(body, { "x-github-event": "push", "x-hub-signature-256": hex });
    },
    "no provider header at all": () => Promise.resolve(webhookRequest(body, {})),
  };
  for (const [name, build] of Object.entries(cases)) {
    await t.step(name, async () => {
      await withKv(async (kv) => {
        assert.deepEqual(await send(testDeps(kv), await build()), invalid);
        assert.deepEqual(await keysUnder(kv, []), []);
      });
    });
  }
});

Deno.test("github: with no GitHub secret configured every delivery is refused", async () => {
  await withKv(async (kv) => {
    const body = await fixture("push/payload.json");
    const deps = testDeps(kv, { secrets: { github: [], gitea: ["x"], custom: ["y"] } });
    assert.deepEqual(await send(deps, await githubRequest(body, { event: "push" })), {
      status: 401,
      body: { error: "Invalid signature" },
    });
  });
});

Deno.test("github: missing event header or a non-object body is 400 Invalid event", async (t) => {
  const invalid = { status: 400, body: { error: "Invalid event" } };
  const bodies: Record<string, Uint8Array<ArrayBuffer>> = {
    "invalid JSON": utf8("{not json"),
    "a JSON array": jsonBytes([{ action: "opened" }]),
    "a JSON string": jsonBytes("opened"),
    "JSON null": jsonBytes(null),
    "an empty body": new Uint8Array(0),
  };
  for (const [name, body] of Object.entries(bodies)) {
    await t.step(name, async () => {
      await withKv(async (kv) => {
        assert.deepEqual(await send(testDeps(kv), await githubRequest(body)), invalid);
        assert.deepEqual(await keysUnder(kv, []), []);
      });
    });
  }
  await t.step("missing X-GitHub-Event", async () => {
    await withKv(async (kv) => {
      const body = await fixture("push/payload.json");
      assert.deepEqual(await send(testDeps(kv), await githubRequest(body, { event: "" })), invalid);
    });
  });
  await t.step("malformed X-GitHub-Event", async () => {
    await withKv(async (kv) => {
      const body = await fixture("push/payload.json");
      const request = await githubRequest(body, { event: "push event" });
      assert.deepEqual(await send(testDeps(kv), request), invalid);
    });
  });
  await t.step("the signature is checked before the body is parsed", async () => {
    await withKv(async (kv) => {
      const request = await githubRequest(utf8("{not json"), { secret: "wrong" });
      assert.deepEqual(await send(testDeps(kv), request), {
        status: 401,
        body: { error: "Invalid signature" },
      });
    });
  });
});

Deno.test("github: ping is acknowledged and neither stored nor queued; its delivery id is a duplicate after", async () => {
  await withKv(async (kv) => {
    const body = await fixture("ping/payload.json");
    const ping = async () =>
      await send(testDeps(kv), await githubRequest(body, { event: "ping", delivery: "p1" }));
    assert.deepEqual(await ping(), { status: 200, body: { ok: true } });
    assert.deepEqual(await keysUnder(kv, []), [dedupKey({ type: "global" }, "github", "p1")]);
    assert.deepEqual(await ping(), { status: 200, body: { ok: true, duplicate: true } });
  });
});

Deno.test("github: a body that is not valid UTF-8 is Invalid event", async () => {
  await withKv(async (kv) => {
    const bodies = [
      new Uint8Array([...utf8('{"a":"'), 0xff, 0xfe, 0xc3, ...utf8('"}')]),
      new Uint8Array([...utf8('{"a":"'), 0xe9, ...utf8('"}')]),
      new Uint8Array([...utf8('{"a":"'), 0xed, 0xa0, 0x80, ...utf8('"}')]),
    ];
    for (const body of bodies) {
      const res = await send(testDeps(kv), await githubRequest(body, { event: "issues" }));
      assert.deepEqual(res, { status: 400, body: { error: "Invalid event" } });
    }
    assert.deepEqual(await keysUnder(kv, ["events"]), []);
  });
});

Deno.test("github: a delivery id seen within 5 minutes is a duplicate, later it is new", async () => {
  await withKv(async (kv) => {
    const body = await fixture("pull_request/synchronize.payload.json");
    let now = NOW;
    const deps = testDeps(kv, { now: () => now });
    const deliver = async () => send(deps, await githubRequest(body, { delivery: DELIVERY }));

    assert.deepEqual(await deliver(), { status: 200, body: { ok: true } });
    now = NOW + 5 * 60 * 1000 - 1;
    assert.deepEqual(await deliver(), { status: 200, body: { ok: true, duplicate: true } });
    assert.equal((await keysUnder(kv, ["events"])).length, 1);

    now = NOW + 5 * 60 * 1000;
    assert.deepEqual(await deliver(), { status: 200, body: { ok: true } });
    assert.equal((await keysUnder(kv, ["events"])).length, 2);
  });
});

Deno.test("github: deliveries without an id are never de-duplicated", async () => {
  await withKv(async (kv) => {
    const body = await fixture("push/payload.json");
    for (let i = 0; i < 2; i++) {
      const res = await send(testDeps(kv), await githubRequest(body, { event: "push" }));
      assert.deepEqual(res, { status: 200, body: { ok: true } });
    }
    assert.equal((await keysUnder(kv, ["events"])).length, 2);
  });
});

Deno.test("github: concurrent identical deliveries are accepted exactly once", async () => {
  await using kv = await openTestKv();
  try {
    const body = await fixture("pull_request/opened.payload.json");
    const requests = await Promise.all(
      Array.from({ length: 16 }, () => githubRequest(body, { delivery: DELIVERY })),
    );
    const answers = await Promise.all(
      requests.map(async (r) => (await handleWebhook(testDeps(kv), r)).json()),
    );
    assert.equal(answers.filter((a) => a.duplicate === undefined).length, 1);
    assert.equal(answers.filter((a) => a.duplicate === true).length, 15);
    assert.ok(answers.every((a) => a.ok === true));
    assert.equal((await keysUnder(kv, ["events"])).length, 1);
    assert.equal((await keysUnder(kv, ["event_chunks"])).length, 0, "payload kept in the record");
    const jobs = (await listJobs(kv)).map((job) => job.value.message);
    assert.deepEqual(jobs.map(isDeliverJob), [true]);
  } finally {
    kv.close();
  }
});

Deno.test({
  name: "github: a failing store answers 500 with a JSON error",
  // A closed PostgreSQL store reads as unreachable (503, tests/ingest/ingest_store_outage_test.ts).
  ...onlyOn("denokv", "a closed Deno KV is a store failure that is not passing"),
  async fn() {
    await using kv = await openTestKv();
    kv.close();
    const logged: string[] = [];
    const deps = testDeps(kv, { log: (_level, message) => logged.push(message) });
    const body = await fixture("push/payload.json");
    assert.deepEqual(await send(deps, await githubRequest(body, { event: "push" })), {
      status: 500,
      body: { error: "Internal server error" },
    });
    assert.deepEqual(logged, ["webhook ingress failed"]);
  },
});
