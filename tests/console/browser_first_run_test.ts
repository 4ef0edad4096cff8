/**
 * The whole first-run path through the console only, as a new admin would take it: create a
 * group, copy its secret, allow a Discord channel, build the `pull_request.opened` + label
 * `bug` route with the filter-tree editor until the live explanation turns green, save, then
 * (from the test, with the copied secret) send signed webhooks, find the delivery in the logs,
 * redeliver a failed one, and see in the events view why an event did or did not arrive. A
 * fake Discord answers; the route's editor then explains the real event that fired nothing. Skipped when chromium is not installed.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { utf8 } from "../../lib/encoding.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import {
  assertGoodEverywhere,
  assertNoAxeViolations,
  hasChromium,
  startConsoleWorld,
  withChromium,
} from "../_browser.ts";
import { runWorker } from "../_delivery_helpers.ts";
import { waitFor } from "../_helpers.ts";

const CHANNEL = "123456789012345678";

function pullRequest(number: number, label: string) {
  return {
    action: "opened",
    number,
    pull_request: {
      number,
      title: `Pull request ${number}`,
      html_url: `https://github.com/octo/app/pull/${number}`,
      labels: [{ name: label }],
      user: { login: "octocat" },
    },
    repository: { full_name: "octo/app", html_url: "https://github.com/octo/app" },
    sender: { login: "octocat" },
  };
}

/** Posts a GitHub event signed with `secret`; answers the status. */
async function sendSigned(url: string, secret: string, kind: string, payload: unknown) {
  const body = utf8(JSON.stringify(payload));
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": kind,
      "x-github-delivery": crypto.randomUUID(),
      "x-hub-signature-256": await signGithubBody(secret, body),
    },
    body,
  });
  await res.body?.cancel();
  return res.status;
}

/** Reloads the page until `check` holds (the worker delivers in the background). */
async function reloadUntil(page: Page, what: string, check: () => Promise<boolean>) {
  await waitFor(what, async () => {
    await page.reload();
    return await check();
  });
}

const rowsWith = (page: Page, status: string) =>
  page.locator(`[data-testid=log-row]:has([data-status=${status}])`);

Deno.test({
  name:
    "first run through the console: group, secret, route built in the tree editor, webhook, logs, redelivery, events",
  ignore: !hasChromium,
  async fn() {
    await using world = await startConsoleWorld();
    const { app, discord } = world;
    await using _worker = runWorker(app.kv, app.config);
    await withChromium(app.app.fetch, async (page, base) => {
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: base,
      });
      await page.goto(`${base}/`);
      await page.getByTestId("setup-checklist").waitFor();
      await page.getByRole("navigation", { name: "Console" })
        .getByRole("link", { name: "Groups" }).click();

      // A group, its secret (copied), and the Discord channel it may post into.
      await page.getByLabel("Name", { exact: true }).fill("Backend team");
      await page.getByRole("button", { name: "Create group" }).click();
      await page.waitForURL(`${base}/admin/groups/backend-team?created=1`);
      const ingress = `${base}${
        new URL(await page.getByLabel("Payload URL").inputValue()).pathname
      }`;
      await page.getByRole("button", { name: "Generate secret" }).click();
      await page.getByRole("button", { name: "Copy secret" }).click();
      await page.getByTestId("copy-secret").filter({ hasText: "Copied" }).waitFor();
      const secret = await page.evaluate(() => navigator.clipboard.readText());
      assert.match(secret, /^[0-9a-f]{64}$/);
      await page.locator("#target-id").fill(CHANNEL);
      await page.getByRole("button", { name: "Allow target" }).click();
      await page.getByTestId("allowed-targets").getByText(CHANNEL).waitFor();

      // The route, built with the tree editor against the bundled pull request sample.
      await page.getByRole("navigation", { name: "Console" })
        .getByRole("link", { name: "Routes" }).click();
      // The tab keeps the group: its routes open without a choice of groups.
      await page.waitForURL(`${base}/admin/routes/backend-team`);
      await page.getByRole("link", { name: "New route" }).click();
      await page.locator("[data-ready=true]").waitFor();
      await page.locator("[data-testid=verdict-summary]:not([data-matched=unknown])").waitFor();
      await page.getByLabel("Name", { exact: true }).fill("Bug PRs to Discord");
      await page.getByLabel("Channel id").fill(CHANNEL);
      await page.getByRole("button", { name: "+ Event filter in the all group" }).click();
      const event = page.locator("[data-testid=node][data-kind=event]");
      await event.getByLabel("Event kind", { exact: true }).fill("pull_request");
      await event.getByLabel("Action", { exact: true }).fill("opened");
      await page.getByRole("button", { name: "+ Field filter in the all group" }).click();
      const field = page.locator("[data-testid=node][data-kind=field]");
      await field.getByLabel("Path", { exact: true }).fill("pull_request.labels[*].name");
      await field.getByLabel("Operator", { exact: true }).selectOption("eq");
      await field.getByLabel("Value", { exact: true }).fill("docs");
      await page.locator("[data-testid=verdict-summary][data-matched=false]").waitFor();
      await field.getByLabel("Value", { exact: true }).fill("bug");
      await page.locator("[data-testid=verdict-summary][data-matched=true]").waitFor();
      await page.locator("[data-testid=server-check][data-ok=true]").waitFor();
      await page.getByRole("button", { name: "Create route" }).click();
      await page.waitForURL(
        /\/admin\/routes\/backend-team\/edit\/bug-prs-to-discord\?saved=1&sample=pull_request\.opened$/,
      );

      // A signed webhook is delivered, and its send log is in the logs.
      assert.equal(await sendSigned(ingress, secret, "pull_request", pullRequest(1, "bug")), 200);
      await page.getByRole("navigation", { name: "Console" })
        .getByRole("link", { name: "Logs" }).click();
      await reloadUntil(
        page,
        "the delivery in the logs",
        async () => await rowsWith(page, "ok").count() === 1,
      );
      assert.equal(discord.received.length, 1);
      assert.equal(discord.received[0].chat, CHANNEL);

      // A refused one fails, and is sent again from the logs.
      discord.script(CHANNEL, [{
        status: 400,
        body: { message: "Invalid Form Body", code: 50035 },
      }]);
      assert.equal(await sendSigned(ingress, secret, "pull_request", pullRequest(2, "bug")), 200);
      await reloadUntil(
        page,
        "the failed delivery in the logs",
        async () => await rowsWith(page, "failed").count() === 1,
      );
      await page.getByRole("checkbox", { name: /^Select pull_request\.opened to Discord/ })
        .check();
      await page.getByRole("button", { name: "Redeliver selected" }).click();
      await page.getByTestId("redeliver-dialog").getByRole("button", { name: "Redeliver" })
        .click();
      await reloadUntil(
        page,
        "the redelivered unit to be sent",
        async () => await rowsWith(page, "ok").count() === 2,
      );
      assert.equal(discord.received.length, 2);
      await assertNoAxeViolations(page);

      // The events view: a push fired no route, and its page says why.
      assert.equal(await sendSigned(ingress, secret, "push", { ref: "refs/heads/main" }), 200);
      await page.getByRole("navigation", { name: "Console" })
        .getByRole("link", { name: "Events" }).click();
      await page.waitForURL(`${base}/admin/events/backend-team`);
      await reloadUntil(
        page,
        "three events",
        async () => await page.locator("[data-event-id]").count() === 3,
      );
      assert.deepEqual(
        await page.getByTestId("fired").allInnerTexts(),
        ["no route", "1 route", "1 route"],
      );
      await assertGoodEverywhere(page);
      // Each event's title is its link; the newest is the push.
      await page.locator("[data-event-id]").first().getByRole("link").click();
      await page.getByRole("heading", { name: "Why did this event not arrive?" }).waitFor();
      const verdict = page.locator("[data-route-id=bug-prs-to-discord]");
      assert.equal(await verdict.getByTestId("route-fired").innerText(), "did not fire");
      assert.equal(
        await verdict.getByTestId("route-verdict").innerText(),
        "Did not fire: the route wants pull_request.opened events; this is push.",
      );
      await verdict.getByText("Event pull_request.opened", { exact: true }).waitFor();
      await assertGoodEverywhere(page);

      // The route's editor opens explained against that real event.
      await verdict.getByRole("link", { name: "Bug PRs to Discord" }).click();
      await page.locator("[data-ready=true]").waitFor();
      await page.locator("[data-testid=verdict-summary][data-matched=false]").waitFor();
      assert.match(await page.locator("#sample-source").inputValue(), /^event:/);
      assert.equal(await page.locator("#sample-kind").inputValue(), "push");
    });
  },
});
