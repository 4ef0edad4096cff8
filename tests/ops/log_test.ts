import assert from "node:assert/strict";
import { createLogger, redact } from "../../lib/log.ts";

Deno.test("log lines are JSON with time, level, message and fields", () => {
  const lines: string[] = [];
  const log = createLogger({ sink: (line) => lines.push(line) }).with({ requestId: "r1" });
  log.info("hello", { count: 2 });
  log.debug("hidden below the minimum level");
  const record = JSON.parse(lines[0]);
  assert.equal(lines.length, 1);
  assert.equal(record.level, "info");
  assert.equal(record.message, "hello");
  assert.equal(record.requestId, "r1");
  assert.equal(record.count, 2);
  assert.ok(!Number.isNaN(Date.parse(record.time)));
});

Deno.test("secrets and tokens are never logged", () => {
  const lines: string[] = [];
  const log = createLogger({ sink: (line) => lines.push(line) });
  log.warn("call", {
    headers: { authorization: "Bearer gho_abc", "x-hub-signature-256": "sha256=00" },
    accessToken: "gho_abc",
    nested: [{ clientSecret: "s3cret", name: "visible" }],
  });
  assert.ok(!lines[0].includes("gho_abc"));
  assert.ok(!lines[0].includes("s3cret"));
  assert.ok(!lines[0].includes("sha256=00"));
  assert.ok(lines[0].includes("visible"));
  assert.deepEqual(redact({ password: "x", user: "y" }), { password: "[redacted]", user: "y" });
});

Deno.test("errors are logged with name and message", () => {
  const lines: string[] = [];
  createLogger({ sink: (line) => lines.push(line) }).error("failed", {
    error: new TypeError("bad"),
  });
  const record = JSON.parse(lines[0]);
  assert.equal(record.error.name, "TypeError");
  assert.equal(record.error.message, "bad");
});
