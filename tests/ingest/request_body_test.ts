/**
 * The one bounded body reader: a byte limit enforced while streaming (a huge chunked body is
 * never read whole) and a deadline for the whole body (a sender that stops sending gets 408).
 */
import assert from "node:assert/strict";
import { ADMIN_BODY_BYTES, FORM_BODY_BYTES, WEBHOOK_BODY_BYTES } from "../../lib/limits.ts";
import { readJsonBody } from "../../lib/http_body.ts";
import { readBody } from "../../lib/request_body.ts";
import { createSession } from "../../lib/store/auth/sessions.ts";
import { PEOPLE, startAdminApp } from "../_admin_helpers.ts";
import { send, testDeps, webhookRequest, withKv } from "../_ingest_helpers.ts";

const CHUNK = 64 * 1024;
const MB = 1024 * 1024;

/** A stream of `total` bytes in 64 KiB chunks, handed out on demand and counted. */
function countedStream(
  total: number,
): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) return controller.close();
      pulled += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(0x20));
    },
  }, { highWaterMark: 0 });
  return { stream, pulled: () => pulled };
}

/** A stream that sends `bytes` and then nothing, never ending. */
function stalledStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return new Promise<void>(() => {});
      sent = true;
      controller.enqueue(bytes);
    },
  }, { highWaterMark: 0 });
}

function streamed(body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new Request("http://localhost/x", { method: "POST", body, headers });
}

Deno.test("body: a chunked body over the limit stops being read just past the limit", async () => {
  const { stream, pulled } = countedStream(150 * MB);
  const read = await readBody(streamed(stream), { maxBytes: MB });
  assert.deepEqual(read, { ok: false, refusal: "too_large" });
  assert.ok(pulled() <= MB + CHUNK, `read ${pulled()} bytes`);
});

Deno.test("body: a Content-Length over the limit is refused without reading", async () => {
  const { stream, pulled } = countedStream(150 * MB);
  const read = await readBody(streamed(stream, { "content-length": String(150 * MB) }), {
    maxBytes: MB,
  });
  assert.deepEqual(read, { ok: false, refusal: "too_large" });
  assert.equal(pulled(), 0);
});

Deno.test("body: a body that stops arriving is refused at the deadline", async () => {
  const request = streamed(stalledStream(new Uint8Array(10)), { "content-length": "1000" });
  assert.deepEqual(await readBody(request, { maxBytes: MB, timeoutMs: 20 }), {
    ok: false,
    refusal: "timeout",
  });
});

Deno.test("body: a stream that fails is unreadable; a complete body comes back whole", async () => {
  const failing = new ReadableStream<Uint8Array>({
    pull: (controller) => controller.error(new Error("connection reset")),
  });
  assert.deepEqual(await readBody(streamed(failing), { maxBytes: MB }), {
    ok: false,
    refusal: "unreadable",
  });
  const { stream } = countedStream(3 * CHUNK);
  const read = await readBody(streamed(stream), { maxBytes: MB });
  assert.equal(read.ok && read.bytes.length, 3 * CHUNK);
  const empty = await readBody(new Request("http://localhost/x", { method: "POST" }), {
    maxBytes: MB,
  });
  assert.equal(empty.ok && empty.bytes.length, 0);
});

Deno.test("body: the JSON reader answers 400 Invalid JSON", async () => {
  const request = new Request("http://localhost/x", { method: "POST", body: "{nope" });
  await assert.rejects(
    () => readJsonBody(request, { maxBytes: MB }),
    (error: Error & { status?: number }) =>
      error.status === 400 && error.message === "Invalid JSON",
  );
});

Deno.test("body: a /webhook body that promises 1,000 bytes and sends 10 answers 408", async () => {
  await withKv(async (kv) => {
    const request = webhookRequest(stalledStream(new Uint8Array(10).fill(0x20)), {
      "x-github-event": "push",
      "x-hub-signature-256": "sha256=" + "0".repeat(64),
      "content-length": "1000",
    });
    assert.deepEqual(await send(testDeps(kv, { bodyTimeoutMs: 20 }), request), {
      status: 408,
      body: { error: "Request timeout" },
    });
  });
});

Deno.test("body: the webhook limit stays 1 MB", async () => {
  await withKv(async (kv) => {
    const { stream, pulled } = countedStream(150 * MB);
    const request = webhookRequest(stream, {
      "x-github-event": "push",
      "x-hub-signature-256": "sha256=" + "0".repeat(64),
    });
    assert.deepEqual(await send(testDeps(kv), request), {
      status: 413,
      body: { error: "Request too large" },
    });
    assert.ok(pulled() <= WEBHOOK_BODY_BYTES + CHUNK, `read ${pulled()} bytes`);
  });
});

Deno.test("body: a 150 MB chunked admin API body is 413 without being read whole", async () => {
  await using app = await startAdminApp();
  const { stream, pulled } = countedStream(150 * MB);
  const res = await app.t.fetch("/admin/api/routes", {
    method: "PUT",
    headers: { cookie: await app.cookie("superAdmin"), "content-type": "application/json" },
    body: stream,
  });
  assert.equal(res.status, 413);
  assert.deepEqual(await res.json(), { error: "Request too large" });
  assert.ok(pulled() <= ADMIN_BODY_BYTES + CHUNK, `read ${pulled()} bytes`);
});

Deno.test("body: an admin API JSON body of just over 1 MB is 413", async () => {
  await using app = await startAdminApp();
  const res = await app.call("superAdmin", "PUT", "/admin/api/routes", {
    body: { routes: [], pad: "x".repeat(ADMIN_BODY_BYTES) },
  });
  assert.equal(res.status, 413);
});

Deno.test("body: the invite form is read with a 16 KiB limit", async () => {
  await using app = await startAdminApp();
  const { sessionId } = await createSession(app.kv, PEOPLE.stranger);
  const { stream, pulled } = countedStream(150 * MB);
  const res = await app.t.fetch("/admin/invite", {
    method: "POST",
    headers: {
      cookie: `switchyard_session=${sessionId}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: stream,
  });
  assert.equal(res.status, 413);
  await res.body?.cancel();
  assert.ok(pulled() <= FORM_BODY_BYTES + CHUNK, `read ${pulled()} bytes`);
});

Deno.test("body: the sign-out form is read with the same 16 KiB limit", async () => {
  await using app = await startAdminApp();
  const { stream, pulled } = countedStream(2 * MB);
  const res = await app.t.fetch("/admin/logout", {
    method: "POST",
    headers: {
      cookie: await app.cookie("owner"),
      "content-type": "application/x-www-form-urlencoded",
    },
    body: stream,
  });
  assert.equal(res.status, 413);
  await res.body?.cancel();
  assert.ok(pulled() <= FORM_BODY_BYTES + CHUNK, `read ${pulled()} bytes`);
});

Deno.test("body: no route or library module reads a request body except lib/request_body.ts", async () => {
  const reader = /\b(?:req|request)\.(?:json|formData|text|arrayBuffer|blob|bytes)\(/;
  const offenders: string[] = [];
  for (const folder of ["routes", "lib"]) {
    for await (const file of sourceFiles(new URL(`../../${folder}/`, import.meta.url))) {
      if (file.pathname.endsWith("/lib/request_body.ts")) continue;
      if (reader.test(await Deno.readTextFile(file))) offenders.push(file.pathname);
    }
  }
  assert.deepEqual(offenders, []);
});

/** Every .ts/.tsx file below a folder. */
async function* sourceFiles(folder: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(folder)) {
    const url = new URL(entry.isDirectory ? `${entry.name}/` : entry.name, folder);
    if (entry.isDirectory) yield* sourceFiles(url);
    else if (/\.tsx?$/.test(entry.name)) yield url;
  }
}
