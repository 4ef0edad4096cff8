import assert from "node:assert/strict";
import { WEBHOOK_BODY_BYTES as MAX_BODY_BYTES } from "../../lib/limits.ts";
import { readBody } from "../../lib/request_body.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import {
  INLINE_CHUNKS,
  loadEvent,
  loadEventBody,
  PAYLOAD_CHUNK_BYTES,
  saveEvent,
} from "../../lib/store/delivery/events.ts";
import { utf8 } from "../../lib/encoding.ts";

import {
  githubRequest,
  keysUnder,
  onlyEventId,
  send,
  testDeps,
  webhookRequest,
  withKv,
} from "../_ingest_helpers.ts";

const TOO_LARGE = { status: 413, body: { error: "Request too large" } };

/** `length` random bytes. */
function noise(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let start = 0; start < length; start += 65536) {
    crypto.getRandomValues(bytes.subarray(start, start + 65536));
  }
  return bytes;
}

/**
 * A JSON object of exactly `size` bytes, with multi-byte characters and a
 * random (so barely compressible) base64 text in it.
 */
function payloadOfSize(size: number): Uint8Array<ArrayBuffer> {
  const head = '{"action":"opened","text":"grüße ✓ ';
  const tail = '"}';
  const fill = size - utf8(head).length - utf8(tail).length;
  const random = noise(Math.ceil(fill * 0.75) + 3).toBase64();
  const bytes = utf8(head + random.slice(0, fill) + tail);
  assert.equal(bytes.length, size);
  return bytes;
}

/** An endless stream of 16 KiB chunks that counts what it hands out. */
function endlessStream(): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 16 * 1024;
      controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
    },
  }, { highWaterMark: 0 });
  return { stream, pulled: () => pulled };
}

Deno.test("limits: a Content-Length over 1 MB is refused without reading the body", async () => {
  await withKv(async (kv) => {
    const { stream, pulled } = endlessStream();
    const request = webhookRequest(stream, {
      "x-github-event": "push",
      "x-hub-signature-256": "sha256=" + "0".repeat(64),
      "content-length": String(MAX_BODY_BYTES + 1),
    });
    assert.deepEqual(await send(testDeps(kv), request), TOO_LARGE);
    assert.equal(pulled(), 0);
  });
});

Deno.test("limits: a streamed body without Content-Length stops at the limit", async () => {
  await withKv(async (kv) => {
    const { stream, pulled } = endlessStream();
    const request = webhookRequest(stream, {
      "x-github-event": "push",
      "x-hub-signature-256": "sha256=" + "0".repeat(64),
    });
    assert.equal(request.headers.get("content-length"), null);
    assert.deepEqual(await send(testDeps(kv), request), TOO_LARGE);
    assert.ok(pulled() > MAX_BODY_BYTES);
    assert.ok(pulled() <= MAX_BODY_BYTES + 16 * 1024, `read ${pulled()} bytes`);
  });
});

Deno.test("limits: the size check comes before the signature check", async () => {
  await withKv(async (kv) => {
    const body = payloadOfSize(MAX_BODY_BYTES + 1);
    const request = webhookRequest(body, { "x-github-event": "push" });
    assert.deepEqual(await send(testDeps(kv), request), TOO_LARGE);
  });
});

Deno.test("limits: a Content-Length that understates the body does not help", async () => {
  const body = payloadOfSize(MAX_BODY_BYTES + 10);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(body);
      controller.close();
    },
  });
  const request = new Request("http://localhost/webhook", {
    method: "POST",
    body: stream,
    headers: { "content-length": "10" },
  });
  assert.deepEqual(await readBody(request, { maxBytes: MAX_BODY_BYTES }), {
    ok: false,
    refusal: "too_large",
  });
});

Deno.test("limits: a body of exactly 1 MB is accepted and stored intact in chunks", async () => {
  await withKv(async (kv) => {
    const body = payloadOfSize(MAX_BODY_BYTES);
    const request = await githubRequest(body, { delivery: "big-1" });
    assert.deepEqual(await send(testDeps(kv), request), { status: 200, body: { ok: true } });
    const eventId = await onlyEventId(kv);
    const chunks = await keysUnder(kv, ["event_chunks", eventId]);
    assert.ok(chunks.length > INLINE_CHUNKS, "needs chunks written before the accepting commit");
    for (const key of chunks) {
      const chunk = await kv.get<Uint8Array>(key);
      assert.ok(chunk.value && chunk.value.length <= PAYLOAD_CHUNK_BYTES);
    }
    assert.deepEqual(await loadEventBody(kv, eventId), body);
  });
});

Deno.test("limits: a 900 KB payload comes back intact from the store", async () => {
  await withKv(async (kv) => {
    const body = payloadOfSize(900 * 1024);
    const headers = {
      "x-github-event": "issues",
      "x-github-delivery": "nine-hundred",
      "x-hub-signature-256": await signGithubBody("github-secret-current", body),
    };
    assert.deepEqual(await send(testDeps(kv), webhookRequest(body, headers)), {
      status: 200,
      body: { ok: true },
    });
    const eventId = await onlyEventId(kv);
    assert.deepEqual(await loadEventBody(kv, eventId), body);
    const event = await loadEvent(kv, eventId);
    assert.equal(event?.action, "opened");
    assert.equal(
      (event?.payload as { text: string }).text,
      JSON.parse(new TextDecoder().decode(body)).text,
    );
  });
});

Deno.test("limits: a large duplicate leaves no chunks behind", async () => {
  await withKv(async (kv) => {
    const body = payloadOfSize(MAX_BODY_BYTES);
    const deps = testDeps(kv);
    assert.deepEqual(await send(deps, await githubRequest(body, { delivery: "dup-big" })), {
      status: 200,
      body: { ok: true },
    });
    const eventId = await onlyEventId(kv);
    const stored = await keysUnder(kv, ["event_chunks"]);
    assert.deepEqual(await send(deps, await githubRequest(body, { delivery: "dup-big" })), {
      status: 200,
      body: { ok: true, duplicate: true },
    });
    assert.deepEqual(await keysUnder(kv, ["event_chunks"]), stored);
    assert.ok(stored.every((key) => key[1] === eventId));
  });
});

Deno.test("limits: incompressible and highly compressible payloads both come back byte for byte", async () => {
  await withKv(async (kv) => {
    const random = noise(700_000);
    const repetitive = utf8(`{"text":"${"abc".repeat(300_000)}"}`);
    for (const body of [random, repetitive, new Uint8Array(0)]) {
      const outcome = await saveEvent(kv, {
        provider: "custom",
        kind: "custom",
        scope: { type: "global" },
        receivedAt: Date.now(),
        headers: {},
        body,
      });
      assert.equal(outcome.status, "accepted");
      if (outcome.status === "accepted") {
        assert.deepEqual(await loadEventBody(kv, outcome.eventId), body);
      }
    }
  });
});
