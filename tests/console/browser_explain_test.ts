/**
 * Browser tests of the first-run fixes a person sees: an event page that says in plain words
 * why each route fired or not and sends the event again through the current routes; the log
 * drawer that follows a redelivered message; a dismissed "New secret generated" banner that
 * stays dismissed; the header's tabs that keep the current group; a person with one group who
 * never has to choose it. Every page passes axe-core, in dark mode and at 390 px. Skipped when
 * chromium is not installed.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { utf8 } from "../../lib/encoding.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import { createSession } from "../../lib/store/auth/sessions.ts";
import { unitBodyKey } from "../../lib/store/keys.ts";
import type { Route } from "../../lib/types.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import {
  allowTarget,
  ALPHA,
  BETA,
  PEOPLE,
  type Person,
  route,
  sendLog,
  storeSendLogs,
} from "../_admin_helpers.ts";
import {
  assertGoodEverywhere,
  hasChromium,
  startConsoleApp,
  untilHydrated,
  withChromium,
} from "../_browser.ts";
import { runWorker } from "../_delivery_helpers.ts";
import { waitFor } from "../_helpers.ts";

const BUGS: Route = route("alpha", "bugs", {
  name: "Bugs",
  filters: [],
  ast: {
    all: [
      { type: "event", value: "pull_request.opened" },
      { type: "field", path: "pull_request.labels[*].name", value: "bug" },
    ],
  },
});

/** Runs `run` in chromium as the DEBUG_MODE super admin, or signed in as `as`. */
async function withConsole(
  options: {
    as?: Person;
    discordUrl?: string;
    seed?: (kv: Kv) => Promise<void>;
    /** Whether the delivery worker runs (default yes). */
    worker?: boolean;
  },
  run: (page: Page, base: string, kv: Kv) => Promise<void>,
) {
  const env: Record<string, string> = options.as ? {} : { DEBUG_MODE: "true" };
  if (options.discordUrl) {
    Object.assign(env, {
      DISCORD_BOT_TOKEN: "test-bot-token",
      DISCORD_API_URL: options.discordUrl,
    });
  }
  await using app = await startConsoleApp(env);
  await putGroup(app.kv, ALPHA);
  await putGroup(app.kv, BETA);
  await options.seed?.(app.kv);
  await using _worker = options.worker === false ? null : runWorker(app.kv, app.config);
  await withChromium(app.app.fetch, async (page, base) => {
    if (options.as) {
      const { sessionId } = await createSession(app.kv, options.as);
      await page.context().addCookies([{
        name: "switchyard_session",
        value: sessionId,
        url: base,
      }]);
    }
    await run(page, base, app.kv);
  });
}

Deno.test({
  name:
    "event page: one plain sentence per route, then the tree; send again through the current routes",
  ignore: !hasChromium,
  async fn() {
    await using discord = startFakeDiscord();
    await withConsole({
      discordUrl: discord.url,
      seed: async (kv) => {
        await allowTarget(kv, "alpha");
        assert.ok((await replaceRoutes(kv, [BUGS])).ok);
      },
    }, async (page, base, kv) => {
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
          pull_request: { number: 3, title: "Docs", labels: [{ name: "docs" }] },
          repository: { full_name: "octo/app" },
          sender: { login: "octocat" },
        })),
      });
      assert.equal(saved.status, "accepted");
      const eventId = saved.status === "accepted" ? saved.eventId : "";
      const eventPage = `${base}/admin/events/alpha/${eventId}`;
      await waitFor("the event judged", async () => {
        const res = await page.request.get(eventPage);
        return res.status() === 200;
      });
      await page.goto(eventPage);
      const bugs = page.locator("[data-route-id=bugs]");
      assert.equal(
        await bugs.getByTestId("route-verdict").innerText(),
        "Did not fire: the route wants label bug; this event has docs.",
      );
      await bugs.getByText('pull_request.labels[*].name equals "bug"').waitFor();
      assert.equal(await page.getByText(/all\[\d\]/).count(), 0, "no indices");
      await assertGoodEverywhere(page);

      // The route now takes docs too; the event, sent again, is delivered.
      assert.ok(
        (await replaceRoutes(kv, [route("alpha", "bugs", {
          ...BUGS,
          ast: { any: [{ type: "field", path: "pull_request.labels[*].name", value: "docs" }] },
        })])).ok,
      );
      await page.setViewportSize({ width: 1280, height: 900 });
      await untilHydrated(
        "the resend button",
        () => page.getByTestId("resend").click(),
        async () => !page.url().endsWith(eventId) || await page.getByTestId("resend").isDisabled(),
      );
      await page.waitForURL((url) =>
        url.pathname.startsWith("/admin/events/alpha/") &&
        !url.pathname.endsWith(eventId)
      );
      await page.getByRole("heading", { name: "Which routes sent it, and why" }).waitFor();
      assert.match(
        await page.locator("[data-route-id=bugs]").getByTestId("route-verdict").innerText(),
        /^Fired: it has label docs\.$/,
      );
      await waitFor("the message to Discord", () => Promise.resolve(discord.received.length === 1));
    });
  },
});

Deno.test({
  name: "log drawer: after Redeliver it shows what came of the message without a reload",
  ignore: !hasChromium,
  async fn() {
    const failed = sendLog(Date.now() - 1000, { status: "failed", error: "Unknown Channel" });
    await withConsole({
      worker: false,
      seed: async (kv) => {
        await storeSendLogs(kv, [failed]);
        await kv.set(unitBodyKey(failed.id), { content: "hello" });
      },
    }, async (page, base, kv) => {
      await page.goto(`${base}/admin/logs`);
      await page.waitForLoadState("networkidle");
      await page.getByRole("link", { name: /^Details of/ }).first().click();
      const drawer = page.getByTestId("log-drawer");
      await drawer.waitFor();
      await drawer.getByRole("button", { name: "Redeliver" }).click();
      await page.getByTestId("redeliver-dialog").getByRole("button", { name: "Redeliver" }).click();
      await drawer.locator("[data-status=retrying]").first().waitFor();
      // The worker's outcome, as it would write it: the drawer reads it again by itself.
      await storeSendLogs(kv, [{ ...failed, status: "ok", attempts: 2, error: undefined }]);
      await drawer.locator("[data-status=ok]").first().waitFor({ timeout: 10_000 });
      await assertGoodEverywhere(page);
    });
  },
});

Deno.test({
  name: "webhook: a dismissed new secret takes its banner with it",
  ignore: !hasChromium,
  async fn() {
    await withConsole({}, async (page, base) => {
      await page.goto(`${base}/admin/groups/alpha`);
      await page.waitForLoadState("networkidle");
      await page.getByRole("button", { name: "Generate secret", exact: true }).click();
      await page.getByTestId("secret-reveal").waitFor();
      const banner = page.getByRole("status").filter({ hasText: "New secret generated" });
      await banner.waitFor();
      await page.getByRole("button", { name: "I have copied it" }).click();
      await page.getByTestId("secret-reveal").waitFor({ state: "detached" });
      assert.equal(await banner.count(), 0, "the banner went with the secret");
      await assertGoodEverywhere(page);
    });
  },
});

Deno.test({
  name:
    "header: the tabs keep the current group, switching keeps the page kind, one group needs no choice",
  ignore: !hasChromium,
  async fn() {
    await withConsole({}, async (page, base) => {
      await page.goto(`${base}/admin/events/beta`);
      const tabs = page.getByRole("navigation", { name: "Console" });
      await tabs.getByRole("link", { name: "Routes" }).click();
      await page.waitForURL(`${base}/admin/routes/beta`);
      assert.equal(await page.locator("#group-switcher").inputValue(), "beta");
      await page.locator("#group-switcher").selectOption("alpha");
      await page.getByRole("button", { name: "Switch" }).click();
      await page.waitForURL(`${base}/admin/routes/alpha`);
      await tabs.getByRole("link", { name: "Logs" }).click();
      assert.equal(await page.locator("#group-switcher").inputValue(), "alpha");
      await assertGoodEverywhere(page);
    });
    await withConsole({ as: PEOPLE.viewer }, async (page, base) => {
      await page.goto(`${base}/admin`);
      const tabs = page.getByRole("navigation", { name: "Console" });
      for (const tab of ["Routes", "Events"]) {
        await tabs.getByRole("link", { name: tab }).click();
        await page.waitForURL(`${base}/admin/${tab.toLowerCase()}/alpha`);
        assert.equal(await page.getByText("Choose a group").count(), 0, tab);
      }
    });
  },
});
