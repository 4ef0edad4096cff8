/**
 * A store that is busy for a moment ("database is locked", as SQLite says when another process
 * holds the file) answers 503 with `Retry-After`, never a bare 500, and writes nothing.
 */
import assert from "node:assert/strict";
import { getRoutes } from "../../lib/store/config/routes.ts";
import { allowTarget, route, startAdminApp } from "../_admin_helpers.ts";

/** Makes every atomic commit in this test file's isolate fail as a busy store does, until undone. */
function lockCommits(): () => void {
  const prototype = Deno.AtomicOperation.prototype;
  const commit = prototype.commit;
  prototype.commit = () => Promise.reject(new TypeError("database is locked"));
  return () => {
    prototype.commit = commit;
  };
}

Deno.test("a busy store answers 503 with Retry-After and a plain message; the write did not happen", async () => {
  await using app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  await app.cookie("owner"); // the session is made before the store gets busy
  const unlock = lockCommits();
  let answer;
  try {
    answer = await app.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
      body: { routes: [route("alpha", "busy")] },
    });
  } finally {
    unlock();
  }
  assert.equal(answer.status, 503, JSON.stringify(answer.body));
  assert.deepEqual(answer.body, { error: "Temporarily unavailable: try again in a moment" });
  assert.equal(answer.headers.get("retry-after"), "1");
  assert.deepEqual((await getRoutes(app.kv)).routes, []);
  const logged = app.t.lines.filter((line) => line.level === "warn" || line.level === "error");
  assert.deepEqual(
    logged.map((line) => [line.level, line.message]),
    [["warn", "request refused: store unavailable"]],
    "a store away for a moment is one warning, not an unexpected error",
  );

  const saved = await app.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes: [route("alpha", "busy")] },
  });
  assert.equal(saved.status, 200, "the same request goes through once the store is free");
});
