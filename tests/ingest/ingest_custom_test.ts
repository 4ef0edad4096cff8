import assert from "node:assert/strict";
import { handleWebhook } from "../../lib/ingest/handle.ts";
import { signCustomBody } from "../../lib/providers/custom.ts";
import { signStandardWebhook } from "../../testing/standard_webhooks_sender.ts";
import { DEDUP_WINDOW_MS, loadEvent, NONCE_WINDOW_MS } from "../../lib/store/delivery/events.ts";
import {
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

const BODY = jsonBytes({ action: "deployed", service: "billing", version: "1.4.2" });
const NOW_SECONDS = NOW / 1000;
const OK = { status: 200, body: { ok: true } };
const INVALID_SIGNATURE = { status: 401, body: { error: "Invalid signature" } };

async function replayHeaders(
  timestamp: number,
  nonce: string,
  body = BODY,
  secret = SECRETS.custom[0],
): Promise<Record<string, string>> {
  return {
    "x-switchyard-signature": await signCustomBody(secret, body, { timestamp, nonce }),
    "x-switchyard-timestamp": String(timestamp),
    "x-switchyard-nonce": nonce,
  };
}

Deno.test("custom: a body signed with X-Switchyard-Signature becomes a custom event", async () => {
  await withKv(async (kv) => {
    const headers = { "x-switchyard-signature": await signCustomBody(SECRETS.custom[0], BODY) };
    assert.deepEqual(await send(testDeps(kv), webhookRequest(BODY, headers)), OK);
    const event = await loadEvent(kv, await onlyEventId(kv));
    assert.equal(event?.provider, "custom");
    assert.equal(event?.kind, "custom");
    assert.equal(event?.action, "deployed");
    assert.equal(event?.deliveryId, undefined);
    assert.deepEqual(event?.payload, { action: "deployed", service: "billing", version: "1.4.2" });
  });
});

Deno.test("custom: a payload without a string action has no action", async () => {
  await withKv(async (kv) => {
    const body = jsonBytes({ action: 3, note: "numbers are not actions" });
    const headers = { "x-switchyard-signature": await signCustomBody(SECRETS.custom[0], body) };
    assert.deepEqual(await send(testDeps(kv), webhookRequest(body, headers)), OK);
    const event = await loadEvent(kv, await onlyEventId(kv));
    assert.equal(event?.kind, "custom");
    assert.equal(event?.action, undefined);
  });
});

Deno.test("custom: refusals", async (t) => {
  const cases: Record<string, () => Promise<Record<string, string>>> = {
    "wrong secret": async () => ({
      "x-switchyard-signature": await signCustomBody("other", BODY),
    }),
    "signed with GitHub's secret": async () => ({
      "x-switchyard-signature": await signCustomBody(SECRETS.github[0], BODY),
    }),
    "bare hex": async () => ({
      "x-switchyard-signature": (await signCustomBody(SECRETS.custom[0], BODY)).slice(7),
    }),
    "empty header": () => Promise.resolve({ "x-switchyard-signature": "" }),
    "body-only signature sent with replay headers": async () => ({
      "x-switchyard-signature": await signCustomBody(SECRETS.custom[0], BODY),
      "x-switchyard-timestamp": String(NOW_SECONDS),
      "x-switchyard-nonce": "n-1",
    }),
    "timestamp without nonce": async () => {
      const headers = await replayHeaders(NOW_SECONDS, "n-1");
      delete headers["x-switchyard-nonce"];
      return headers;
    },
    "nonce without timestamp": async () => {
      const headers = await replayHeaders(NOW_SECONDS, "n-1");
      delete headers["x-switchyard-timestamp"];
      return headers;
    },
    "timestamp in milliseconds": () => replayHeaders(NOW, "n-1"),
    "timestamp 301 s old": () => replayHeaders(NOW_SECONDS - 301, "n-1"),
    "timestamp 301 s ahead": () => replayHeaders(NOW_SECONDS + 301, "n-1"),
    "nonce with a space": () => replayHeaders(NOW_SECONDS, "n 1"),
  };
  for (const [name, build] of Object.entries(cases)) {
    await t.step(name, async () => {
      await withKv(async (kv) => {
        assert.deepEqual(
          await send(testDeps(kv), webhookRequest(BODY, await build())),
          INVALID_SIGNATURE,
        );
        assert.deepEqual(await keysUnder(kv, []), []);
      });
    });
  }
  await t.step("no custom secret configured", async () => {
    await withKv(async (kv) => {
      const headers = { "x-switchyard-signature": await signCustomBody(SECRETS.custom[0], BODY) };
      const deps = testDeps(kv, { secrets: { ...SECRETS, custom: [] } });
      assert.deepEqual(await send(deps, webhookRequest(BODY, headers)), INVALID_SIGNATURE);
    });
  });
  await t.step("a JSON array is 400 Invalid event", async () => {
    await withKv(async (kv) => {
      const body = jsonBytes([1, 2]);
      const headers = { "x-switchyard-signature": await signCustomBody(SECRETS.custom[0], body) };
      assert.deepEqual(await send(testDeps(kv), webhookRequest(body, headers)), {
        status: 400,
        body: { error: "Invalid event" },
      });
    });
  });
});

Deno.test("custom: replay window edges ±300 s are accepted", async () => {
  for (const offset of [-300, 0, 300]) {
    await withKv(async (kv) => {
      const headers = await replayHeaders(NOW_SECONDS + offset, `edge${offset}`);
      assert.deepEqual(await send(testDeps(kv), webhookRequest(BODY, headers)), OK, `${offset}`);
    });
  }
});

Deno.test("custom: a nonce is single-use within its scope", async () => {
  await withKv(async (kv) => {
    let now = NOW;
    const deps = testDeps(kv, { now: () => now });
    const first = await replayHeaders(NOW_SECONDS, "nonce-42");
    assert.deepEqual(await send(deps, webhookRequest(BODY, first)), OK);
    assert.deepEqual(await send(deps, webhookRequest(BODY, first)), INVALID_SIGNATURE);

    now = NOW + 200_000;
    const later = await replayHeaders(NOW_SECONDS + 200, "nonce-42");
    assert.deepEqual(await send(deps, webhookRequest(BODY, later)), INVALID_SIGNATURE);

    now = NOW + NONCE_WINDOW_MS;
    const afterWindow = await replayHeaders(NOW_SECONDS + NONCE_WINDOW_MS / 1000, "nonce-42");
    assert.deepEqual(await send(deps, webhookRequest(BODY, afterWindow)), OK);
    assert.equal((await keysUnder(kv, ["events"])).length, 2);
  });
});

Deno.test("custom: a nonce stays used for as long as its request's timestamp is accepted", async () => {
  await withKv(async (kv) => {
    let now = NOW;
    const deps = testDeps(kv, { now: () => now });
    const headers = await replayHeaders(NOW_SECONDS + 300, "edge-to-edge");
    assert.deepEqual(await send(deps, webhookRequest(BODY, headers)), OK);
    now = NOW + 600_000;
    assert.deepEqual(await send(deps, webhookRequest(BODY, headers)), INVALID_SIGNATURE);
    assert.equal((await keysUnder(kv, ["events"])).length, 1);
  });
});

Deno.test("custom: a replayed nonce with a broken body is still 401, not 400", async () => {
  await withKv(async (kv) => {
    const body = jsonBytes("not an object");
    const headers = await replayHeaders(NOW_SECONDS, "nonce-x", body);
    const deps = testDeps(kv);
    assert.deepEqual(
      await send(deps, webhookRequest(BODY, await replayHeaders(NOW_SECONDS, "nonce-x"))),
      OK,
    );
    assert.deepEqual(await send(deps, webhookRequest(body, headers)), INVALID_SIGNATURE);
  });
});

Deno.test("custom: concurrent requests with one nonce are accepted exactly once", async () => {
  await withKv(async (kv) => {
    const headers = await replayHeaders(NOW_SECONDS, "race");
    const statuses = await Promise.all(
      Array.from(
        { length: 12 },
        async () => (await handleWebhook(testDeps(kv), webhookRequest(BODY, headers))).status,
      ),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 1);
    assert.equal(statuses.filter((s) => s === 401).length, 11);
    assert.equal((await keysUnder(kv, ["events"])).length, 1);
  });
});

async function standardHeaders(
  id: string,
  timestamp: number,
  secret: string,
  body = BODY,
): Promise<Record<string, string>> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await signStandardWebhook(secret, id, timestamp, body),
  };
}

const WHSEC = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

Deno.test("custom: Standard Webhooks deliveries are verified and de-duplicated on webhook-id", async () => {
  await withKv(async (kv) => {
    const deps = testDeps(kv, { secrets: { ...SECRETS, custom: ["whsec_b2xk", WHSEC] } });
    const headers = await standardHeaders("msg_1", NOW_SECONDS, WHSEC);
    assert.deepEqual(await send(deps, webhookRequest(BODY, headers)), OK);
    const event = await loadEvent(kv, await onlyEventId(kv));
    assert.equal(event?.provider, "custom");
    assert.equal(event?.kind, "custom");
    assert.equal(event?.deliveryId, "msg_1");
    assert.equal(event?.headers["webhook-id"], "msg_1");
    assert.equal(event?.headers["webhook-signature"], undefined);

    const retry = await standardHeaders("msg_1", NOW_SECONDS + 5, WHSEC);
    assert.deepEqual(await send(deps, webhookRequest(BODY, retry)), {
      status: 200,
      body: { ok: true, duplicate: true },
    });
    assert.equal((await keysUnder(kv, ["events"])).length, 1);
  });
});

Deno.test("custom: a Standard Webhooks request replayed after de-duplication forgot it is refused", async () => {
  await withKv(async (kv) => {
    let now = NOW;
    const deps = testDeps(kv, { now: () => now, secrets: { ...SECRETS, custom: [WHSEC] } });
    const captured = await standardHeaders("msg_captured", NOW_SECONDS + 300, WHSEC);
    assert.deepEqual(await send(deps, webhookRequest(BODY, captured)), OK);

    now = NOW + 30_000;
    assert.deepEqual(await send(deps, webhookRequest(BODY, captured)), {
      status: 200,
      body: { ok: true, duplicate: true },
    }, "a repeat within the de-duplication window is a duplicate");

    for (const later of [DEDUP_WINDOW_MS + 1_000, 600_000]) {
      now = NOW + later;
      assert.deepEqual(
        await send(deps, webhookRequest(BODY, captured)),
        INVALID_SIGNATURE,
        `replayed ${later} ms later, its timestamp still inside the window`,
      );
    }
    assert.equal((await keysUnder(kv, ["events"])).length, 1);

    now = NOW + DEDUP_WINDOW_MS + 1_000;
    const other = await standardHeaders("msg_other", NOW_SECONDS + 300, WHSEC);
    assert.deepEqual(await send(deps, webhookRequest(BODY, other)), OK, "other ids still pass");
  });
});

Deno.test("custom: Standard Webhooks with a plain secret, window and signature refusals", async () => {
  await withKv(async (kv) => {
    const deps = testDeps(kv);
    const plain = SECRETS.custom[0];
    assert.deepEqual(
      await send(deps, webhookRequest(BODY, await standardHeaders("a", NOW_SECONDS - 300, plain))),
      OK,
    );
    assert.deepEqual(
      await send(deps, webhookRequest(BODY, await standardHeaders("b", NOW_SECONDS + 301, plain))),
      INVALID_SIGNATURE,
    );
    assert.deepEqual(
      await send(deps, webhookRequest(BODY, await standardHeaders("c", NOW_SECONDS, WHSEC))),
      INVALID_SIGNATURE,
    );
    const missingId = await standardHeaders("d", NOW_SECONDS, plain);
    delete missingId["webhook-id"];
    assert.deepEqual(await send(deps, webhookRequest(BODY, missingId)), INVALID_SIGNATURE);
  });
});
