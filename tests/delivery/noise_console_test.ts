/**
 * The route editor's "Noise control" section: the form's rules (without a browser), and in a
 * browser: switched on, checked as you type, saved with the route, free of axe violations.
 * The browser part is skipped when chromium is not installed.
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../../lib/app.ts";
import { noiseFormOf, noiseOptionsOf, withNoiseOptions } from "../../lib/console/noise_form.ts";
import { loadAssets } from "../../lib/fresh/assets.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { getRoutes, replaceRoutes } from "../../lib/store/config/routes.ts";
import type { Route } from "../../lib/types.ts";
import { assertNoAxeViolations, hasChromium, withChromium } from "../_browser.ts";
import { startTestApp } from "../_helpers.ts";

const ROUTE: Route = {
  id: "prs",
  name: "PRs",
  enabled: true,
  groupId: "alpha",
  filters: [{ type: "event", value: "pull_request" }],
  targets: [{ platform: "discord", channelId: "123456789012345678" }],
};

Deno.test("noise form: options round-trip, problems by field, off removes them, urgent is kept", () => {
  const urgent = { type: "event" as const, value: "workflow_run" };
  const stored: Route = {
    ...ROUTE,
    digest: { windowSeconds: 120, threshold: 3 },
    threads: true,
    quietHours: { start: "21:30", end: "06:00", timeZone: "Europe/Berlin", urgent },
  };
  const form = noiseFormOf(stored);
  assert.deepEqual(noiseOptionsOf(form), {
    options: { digest: stored.digest, threads: true, quietHours: stored.quietHours },
    problems: new Map(),
  });
  const bad = noiseOptionsOf({
    ...form,
    windowSeconds: "0",
    threshold: "1.5",
    timeZone: "Mars/X",
    end: "21:30",
  });
  assert.deepEqual([...bad.problems.keys()], [
    "digest.windowSeconds",
    "digest.threshold",
    "quietHours.end",
    "quietHours.timeZone",
  ]);
  assert.equal(
    noiseOptionsOf({ ...form, threshold: "0" }).problems.get("digest.threshold"),
    "a whole number, 1-1000",
  );
  const off = noiseOptionsOf({ ...form, digest: false, threads: false, quiet: false });
  assert.deepEqual(off, { options: {}, problems: new Map() });
  assert.deepEqual(withNoiseOptions(stored, off.options), ROUTE);
  assert.deepEqual(noiseFormOf(undefined).digest, false);
});

Deno.test({
  name: "route editor: noise control options are checked and saved with the route",
  ignore: !hasChromium,
  async fn() {
    const assets = await loadAssets(PROJECT_ROOT);
    assert.ok(assets.client, "assets are not built: run `deno task build` first");
    await using app = await startTestApp({ DEBUG_MODE: "true" }, assets);
    await putGroup(app.kv, {
      id: "alpha",
      name: "Alpha",
      members: [{ userId: "1", login: "olivia", role: "owner" }],
    });
    assert.ok((await replaceRoutes(app.kv, [ROUTE])).ok);
    await withChromium(app.app.fetch, async (page, base) => {
      await page.goto(`${base}/admin/routes/alpha/edit/prs`);
      await page.locator("[data-ready=true]").waitFor();
      const section = page.getByTestId("noise-editor");
      assert.equal(await section.getAttribute("open"), null, "collapsed while off");
      await section.locator("summary").click();
      await page.getByTestId("noise-digest").click();
      await page.getByLabel("Window (seconds)").fill("120");
      await page.getByLabel("Messages before the digest").fill("3");
      await page.getByTestId("noise-threads").click();
      await page.getByTestId("noise-quiet").click();
      await page.getByLabel("Time zone").fill("Mars/Olympus");
      await page.getByText("an IANA time zone such as Europe/Berlin").waitFor();
      await assertNoAxeViolations(page);

      const status = page.getByTestId("status");
      await page.getByRole("button", { name: "Save route" }).click();
      await status.getByText(/Not saved: fix the 1 problem/).waitFor();
      assert.equal((await getRoutes(app.kv)).routes[0].quietHours, undefined);

      await page.getByLabel("Time zone").fill("Europe/Berlin");
      await page.getByRole("button", { name: "Save route" }).click();
      await status.getByText("Route saved").waitFor();
      const [saved] = (await getRoutes(app.kv)).routes;
      assert.deepEqual(saved.digest, { windowSeconds: 120, threshold: 3 });
      assert.equal(saved.threads, true);
      assert.deepEqual(saved.quietHours, {
        start: "22:00",
        end: "07:00",
        timeZone: "Europe/Berlin",
      });
      assert.deepEqual(saved.filters, ROUTE.filters, "the rest of the route is unchanged");
    });
  },
});
