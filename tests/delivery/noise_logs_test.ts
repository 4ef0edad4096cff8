/** Digested units in the events view: the logs API returns and finds `digestId`; the page shows it. */
import assert from "node:assert/strict";
import { sendLog, startAdminApp, storeSendLogs } from "../_admin_helpers.ts";

Deno.test("events view: a digested unit's log names its digest, in the API, its search and the page", async () => {
  await using app = await startAdminApp();
  const now = Date.now();
  const digested = sendLog(now - 1000, {
    messageId: "777",
    digestId: "burst-0123456789abcdef01234567",
  });
  const plain = sendLog(now - 2000, { messageId: "776" });
  await storeSendLogs(app.kv, [plain, digested]);

  const found = await app.call("viewer", "GET", "/admin/api/logs?q=burst-0123456789abcdef");
  assert.equal(found.status, 200, JSON.stringify(found.body));
  const items = (found.body as { items: { id: string; digestId?: string }[] }).items;
  assert.deepEqual(items.map((item) => [item.id, item.digestId]), [
    [digested.id, "burst-0123456789abcdef01234567"],
  ]);

  const page = await app.call("viewer", "GET", `/admin/logs/${digested.id}`, {
    headers: { accept: "text/html" },
  });
  assert.equal(page.status, 200);
  assert.match(String(page.body), /data-testid="log-digest"[^>]*>gathered into digest/);
  const other = await app.call("viewer", "GET", `/admin/logs/${plain.id}`, {
    headers: { accept: "text/html" },
  });
  assert.doesNotMatch(String(other.body), /log-digest/);
});
