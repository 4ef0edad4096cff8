import assert from "node:assert/strict";
import { createApp, isApiPath } from "../../lib/app.ts";
import { manifestIsCurrent } from "../../lib/fresh/manifest.ts";
import { PROJECT_ROOT } from "../../lib/app.ts";
import { captureLog, startTestApp, testConfig } from "../_helpers.ts";

Deno.test("GET /health answers ok while KV reads", async () => {
  await using t = await startTestApp();
  const res = await t.fetch("/health");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: "ok" });
});

Deno.test("GET /health answers 503 when KV cannot be read", async () => {
  const kv = await Deno.openKv(":memory:");
  const { log } = captureLog();
  const app = createApp({ kv, config: testConfig(), log });
  kv.close();
  const res = await app.fetch(new Request("http://localhost/health"));
  assert.equal(res.status, 503);
  assert.equal((await res.json()).status, "unavailable");
});

Deno.test("every response carries a request id, and each request is logged once", async () => {
  await using t = await startTestApp();
  const res = await t.fetch("/health", { headers: { "x-request-id": "req-12345678" } });
  await res.body?.cancel();
  assert.equal(res.headers.get("x-request-id"), "req-12345678");
  const generated = await t.fetch("/health", { headers: { "x-request-id": "bad id!" } });
  await generated.body?.cancel();
  assert.match(generated.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
  const requests = t.lines.filter((line) => line.message === "request");
  assert.equal(requests.length, 2);
  assert.deepEqual(
    { ...requests[0], time: undefined, durationMs: undefined },
    {
      time: undefined,
      level: "info",
      message: "request",
      requestId: "req-12345678",
      method: "GET",
      path: "/health",
      status: 200,
      durationMs: undefined,
    },
  );
  assert.equal(typeof requests[0].durationMs, "number");
});

Deno.test("the console overview renders the JSONPath tester island", async () => {
  const assets = {
    client: "/_fresh/client-x.js",
    islands: { PathTester: "/_fresh/PathTester-x.js" },
    styles: {},
  };
  await using t = await startTestApp({ DEBUG_MODE: "true" }, assets);
  const res = await t.fetch("/admin", { headers: { accept: "text/html" } });
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /<nav aria-label="Console"/);
  for (const tab of ["Overview", "Groups", "Logs", "Audit"]) {
    assert.ok(html.includes(`>${tab}</a>`));
  }
  assert.match(html, /<sy-island data-island="PathTester" data-id="\d+"/);
  assert.match(html, /"path":"pull_request.labels\[\*\].name"/);
  assert.match(html, /"modules":\{"PathTester":"\/_fresh\/PathTester-x.js"\}/);
  assert.match(html, /<script type="module" src="\/_fresh\/client-x.js"><\/script>/);
  for (const tab of ["groups", "logs", "audit"]) {
    const page = await t.fetch(`/admin/${tab}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /aria-current="page"/);
  }
});

Deno.test("errors: unknown API paths answer JSON, unknown pages the 404 page", async () => {
  await using t = await startTestApp();
  const api = await t.fetch("/admin/api/nothing", { headers: { accept: "text/html" } });
  assert.equal(api.status, 404);
  assert.deepEqual(await api.json(), { error: "Not found" });
  const page = await t.fetch("/admin/nothing", { headers: { accept: "text/html" } });
  assert.equal(page.status, 404);
  assert.match(await page.text(), /Page not found/);
  const wrongMethod = await t.fetch("/health", { method: "DELETE" });
  assert.equal(wrongMethod.status, 405);
  assert.deepEqual(await wrongMethod.json(), { error: "Method not allowed" });
});

Deno.test("static files are served; built assets are cached immutably", async () => {
  await using t = await startTestApp();
  const icon = await t.fetch("/favicon.svg");
  assert.equal(icon.status, 200);
  assert.match(await icon.text(), /<svg/);
  const missing = await t.fetch("/_fresh/nothing-here.js");
  assert.equal(missing.status, 404);
  await missing.body?.cancel();
});

Deno.test("isApiPath() separates JSON endpoints from pages", () => {
  for (const path of ["/health", "/webhook", "/webhook/g1", "/api/merge", "/admin/api/me"]) {
    assert.ok(isApiPath(path), path);
  }
  for (const path of ["/admin", "/admin/groups", "/auth/github", "/"]) {
    assert.ok(!isApiPath(path), path);
  }
});

Deno.test("the committed fresh.gen.ts matches routes/ and islands/", async () => {
  assert.ok(await manifestIsCurrent(PROJECT_ROOT), "run `deno task manifest`");
});
