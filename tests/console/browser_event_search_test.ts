/**
 * Browser test of the events search: the form on a group's events page searches by repository,
 * title text and a JSONPath filter over the payloads, says what it searched when nothing
 * matches, and shows a refused filter as an alert; every state passes axe-core, in dark mode and
 * at 390 px. Skipped when chromium is not installed.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { utf8 } from "../../lib/encoding.ts";
import { recordEventRoutes } from "../../lib/store/delivery/event_routes.ts";
import { EVENT_RETENTION_MS, saveEvent } from "../../lib/store/delivery/events.ts";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { ALPHA } from "../_admin_helpers.ts";
import { assertGoodEverywhere, hasChromium, startConsoleApp, withChromium } from "../_browser.ts";

/** Stores a pull request event of `alpha` with its routed-event record. */
async function storePullRequest(kv: Kv, repository: string, title: string, label: string) {
  const saved = await saveEvent(kv, {
    provider: "github",
    kind: "pull_request",
    action: "opened",
    deliveryId: crypto.randomUUID(),
    scope: { type: "group", groupId: "alpha" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify({
      action: "opened",
      pull_request: { title, labels: [{ name: label }] },
      repository: { full_name: repository },
    })),
  });
  assert.equal(saved.status, "accepted");
  const { entry } = await readGroupEntry(kv, "alpha");
  await recordEventRoutes(kv, [{
    internalId: entry!.internalId,
    record: {
      eventId: saved.status === "accepted" ? saved.eventId : "",
      provider: "github",
      kind: "pull_request",
      action: "opened",
      repository,
      sender: "octocat",
      title: `Pull request opened: ${title}`,
      groupId: "alpha",
      routeIds: [],
      receivedAt: Date.now(),
    },
  }], EVENT_RETENTION_MS);
}

Deno.test({
  name: "events search: the form finds by repository, title and payload, and says what it searched",
  ignore: !hasChromium,
  async fn() {
    await using app = await startConsoleApp({ DEBUG_MODE: "true" });
    await putGroup(app.kv, ALPHA);
    await storePullRequest(app.kv, "octo/app", "Fix the flaky login test", "bug");
    await storePullRequest(app.kv, "octo/app", "Bump the parser", "security");
    await storePullRequest(app.kv, "octo/lib", "Flaky cache", "bug");
    await withChromium(app.app.fetch, async (page, base) => {
      await page.goto(`${base}/admin/events/alpha`);
      const rows = page.getByRole("region", { name: "Events" }).getByRole("link");
      assert.equal(await rows.count(), 3);

      await page.getByLabel("Repository").fill("OCTO/app");
      await page.getByLabel("Title contains").fill("flaky");
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/repository=OCTO%2Fapp/);
      assert.deepEqual(await rows.allInnerTexts(), [
        "Pull request opened: Fix the flaky login test",
      ]);
      assert.equal(await page.getByLabel("Repository").inputValue(), "OCTO/app");
      assert.match(
        await page.getByTestId("search-reach").innerText(),
        /Looked at 2 events back to/,
      );
      await assertGoodEverywhere(page);

      await page.getByRole("link", { name: "Reset" }).click();
      await page.getByLabel("JSONPath").fill("$.pull_request.labels[*].name");
      await page.getByLabel("Value", { exact: true }).fill("security");
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/path=/);
      assert.deepEqual(await rows.allInnerTexts(), ["Pull request opened: Bump the parser"]);
      assert.match(await page.getByTestId("search-reach").innerText(), /3 payloads read/);

      await page.getByLabel("Title contains").fill("nowhere");
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/text=nowhere/);
      assert.equal(
        await page.getByTestId("no-events").innerText(),
        "No events with title containing “nowhere”, payload $.pull_request.labels[*].name eq security.",
      );
      await assertGoodEverywhere(page);

      await page.getByLabel("JSONPath").fill("$.labels[");
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/labels%5B&/);
      assert.match(await page.getByRole("alert").innerText(), /invalid JSONPath/);
      await assertGoodEverywhere(page);
    }, [/status of 400/]);
  },
});
