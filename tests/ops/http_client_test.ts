import assert from "node:assert/strict";
import { ANSWER_MAX_BYTES, callJson, MESSAGE_MAX_CHARS } from "../../lib/http_client.ts";

/** Serves one handler on a free loopback port for the length of a test. */
function serve(handler: (req: Request) => Response) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return {
    url: `http://127.0.0.1:${server.addr.port}/`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("callJson: an answer larger than the bound is unreadable, never buffered whole", async () => {
  let pulled = 0;
  await using platform = serve(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 64 * 1024;
          controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        },
      }, { highWaterMark: 0 }),
    )
  );
  const outcome = await callJson(platform.url, {});
  assert.deepEqual(outcome, { kind: "unreachable", message: "answer too large" });
  assert.ok(pulled < ANSWER_MAX_BYTES * 2, `pulled ${pulled} bytes`);
});

Deno.test("callJson: a platform's refusal message is cut to a bound", async () => {
  await using platform = serve(() =>
    Response.json({ message: "x".repeat(100_000) }, { status: 400 })
  );
  const outcome = await callJson(platform.url, {});
  assert.equal(outcome.kind, "refused");
  if (outcome.kind !== "refused") return;
  assert.equal(outcome.status, 400);
  assert.equal(outcome.message.length, MESSAGE_MAX_CHARS);
});

Deno.test("callJson: a platform that does not answer in time is unreachable, 'timed out'", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await held;
    return Response.json({ ok: true });
  });
  try {
    const outcome = await callJson(`http://127.0.0.1:${server.addr.port}/`, { timeoutMs: 50 });
    assert.deepEqual(outcome, { kind: "unreachable", message: "timed out" });
  } finally {
    release();
    await server.shutdown();
  }
});
