import assert from "node:assert/strict";
import { signGithubBody } from "../../lib/providers/github.ts";
import { regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { startTestApp } from "../_helpers.ts";

const body = new TextEncoder().encode(
  JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 }),
);

Deno.test("POST /webhook is wired to the ingress with the global secrets", async () => {
  await using t = await startTestApp({ GITHUB_WEBHOOK_SECRET: "global-secret" });
  const signature = await signGithubBody("global-secret", body);
  const headers = { "x-github-event": "ping", "x-hub-signature-256": signature };
  const ok = await t.fetch("/webhook", { method: "POST", body, headers });
  assert.equal(ok.status, 200);
  assert.deepEqual(await ok.json(), { ok: true });
  const bad = await t.fetch("/webhook", {
    method: "POST",
    body,
    headers: { ...headers, "x-hub-signature-256": await signGithubBody("other", body) },
  });
  assert.equal(bad.status, 401);
  assert.deepEqual(await bad.json(), { error: "Invalid signature" });
  const get = await t.fetch("/webhook");
  assert.equal(get.status, 405);
  await get.body?.cancel();
});

Deno.test("POST /webhook/:groupId uses the group's secret", async () => {
  await using t = await startTestApp({ GITHUB_WEBHOOK_SECRET: "global-secret" });
  await putGroup(t.kv, {
    id: "team",
    name: "Team",
    members: [{ userId: "1", login: "octocat", role: "owner" }],
  });
  const secret = await regenerateGroupSecret(t.kv, "team");
  assert.ok(secret);
  const headers = (signature: string) => ({
    "x-github-event": "ping",
    "x-hub-signature-256": signature,
  });
  const ok = await t.fetch("/webhook/team", {
    method: "POST",
    body,
    headers: headers(await signGithubBody(secret, body)),
  });
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
  const global = await t.fetch("/webhook/team", {
    method: "POST",
    body,
    headers: headers(await signGithubBody("global-secret", body)),
  });
  assert.equal(global.status, 401);
  await global.body?.cancel();
  const unknown = await t.fetch("/webhook/nobody", {
    method: "POST",
    body,
    headers: headers(await signGithubBody(secret, body)),
  });
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
});
