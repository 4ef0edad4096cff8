/**
 * Browser tests of the console's first run and frame, as a person uses them: `/` to the
 * checklist, the sign-in settings page, dark mode, the group switcher, the keyboard
 * shortcuts, confirmations and toasts, and every page at 390 px and in dark mode without
 * overflow or accessibility violations.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { putGroup } from "../../lib/store/config/groups.ts";
import {
  assertNoAxeViolations,
  hasChromium,
  startConsoleApp,
  untilHydrated,
  withChromium,
} from "../_browser.ts";
import { type TestApp } from "../_helpers.ts";

const CONSOLE_PAGES = ["/admin", "/admin/groups", "/admin/logs", "/admin/audit"];

/** Runs `run` in chromium against the app (built assets, `env` settings). */
async function withBrowser(
  env: Record<string, string>,
  run: (page: Page, base: string, app: TestApp) => Promise<void>,
  expectedErrors: readonly RegExp[] = [],
) {
  await using app = await startConsoleApp(env);
  await withChromium(app.app.fetch, (page, base) => run(page, base, app), expectedErrors);
}

const DEBUG = { DEBUG_MODE: "true" };

/** Waits until the islands of the page are hydrated (the theme toggle shows then). */
async function hydrated(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Dark mode" }).waitFor();
}

function isDark(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.classList.contains("dark"));
}

function tab(page: Page, name: string) {
  return page.getByRole("navigation", { name: "Console" }).getByRole("link", { name });
}

function focusedText(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.textContent?.trim() ?? null);
}

Deno.test({
  name: "first run: / opens the console's overview with the setup checklist",
  ignore: !hasChromium,
  async fn() {
    await withBrowser(DEBUG, async (page, base) => {
      await page.goto(`${base}/`);
      assert.equal(new URL(page.url()).pathname, "/admin");
      assert.equal(await page.title(), "Overview · Switchyard");
      const checklist = page.getByRole("region", { name: "Get started" });
      await checklist.getByText("0 of 4 done").waitFor();
      const steps = await checklist.locator("li p.font-medium").allInnerTexts();
      assert.deepEqual(steps.map((step) => step.replace(/\s+/g, " ")), [
        "Create a group (to do)",
        "Copy its webhook URL and secret (to do)",
        "Add a route (to do)",
        "Send a test event (to do)",
      ]);
      await checklist.getByRole("link", { name: "Open Groups" }).first().click();
      await page.getByRole("heading", { level: 1, name: "Groups" }).waitFor();
      assert.equal(await page.title(), "Groups · Switchyard");
    });
  },
});

Deno.test({
  name: "first run: without GitHub sign-in, the console explains what to set, in light and dark",
  ignore: !hasChromium,
  async fn() {
    await withBrowser({}, async (page, base) => {
      await page.goto(`${base}/admin/logs`);
      assert.equal(new URL(page.url()).pathname, "/admin/login");
      await page.getByRole("heading", { level: 1, name: "GitHub sign-in is not configured" })
        .waitFor();
      const text = await page.locator("main").innerText();
      for (
        const expected of [
          "GITHUB_CLIENT_ID",
          "GITHUB_CLIENT_SECRET",
          "BASE_URL",
          "ADMIN_USER_IDS",
          "login:<name>",
          "DEBUG_MODE=true",
        ]
      ) {
        assert.ok(text.includes(expected), expected);
      }
      assert.equal(await page.locator("a").count(), 0, "no link leads back to sign-in");
      await assertNoAxeViolations(page);
      await page.emulateMedia({ colorScheme: "dark" });
      await page.reload();
      assert.ok(await isDark(page));
      await assertNoAxeViolations(page);
    }, [/status of 503 \(Service Unavailable\)/]);
  },
});

Deno.test({
  name: "dark mode: follows the system, and the toggle is remembered across reloads",
  ignore: !hasChromium,
  async fn() {
    await withBrowser(DEBUG, async (page, base) => {
      await page.emulateMedia({ colorScheme: "light" });
      await page.goto(`${base}/admin/groups`);
      await hydrated(page);
      const toggle = page.getByRole("button", { name: "Dark mode" });
      assert.equal(await isDark(page), false);
      assert.equal(await toggle.getAttribute("aria-pressed"), "false");
      const background = () =>
        page.locator("header").evaluate((el) => getComputedStyle(el).backgroundColor);
      const light = await background();

      await toggle.click();
      assert.ok(await isDark(page));
      assert.equal(await toggle.getAttribute("aria-pressed"), "true");
      assert.notEqual(await background(), light);
      await page.reload();
      assert.ok(await isDark(page), "the choice survives a reload");
      await hydrated(page);
      assert.equal(await toggle.getAttribute("aria-pressed"), "true");
      await tab(page, "Logs").click();
      await page.getByRole("heading", { level: 1, name: "Logs" }).waitFor();
      assert.ok(await isDark(page), "and other pages");

      await page.evaluate(() => localStorage.clear());
      await page.emulateMedia({ colorScheme: "dark" });
      await page.reload();
      assert.ok(await isDark(page), "with no choice, the system's scheme");
      await page.emulateMedia({ colorScheme: "light" });
      await page.waitForFunction(() => !document.documentElement.classList.contains("dark"));
      await page.emulateMedia({ colorScheme: "dark" });
      await hydrated(page);
      await toggle.click();
      assert.equal(await isDark(page), false);
      await page.reload();
      assert.equal(await isDark(page), false, "light chosen on a dark system is remembered");
    });
  },
});

Deno.test({
  name: "keyboard: ? lists the shortcuts, Esc closes the list and focus returns; / focuses search",
  ignore: !hasChromium,
  async fn() {
    await withBrowser(DEBUG, async (page, base) => {
      await page.goto(`${base}/admin`);
      await hydrated(page);
      const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await tab(page, "Logs").focus();
      await page.keyboard.press("?");
      await dialog.waitFor();
      assert.ok(await dialog.evaluate((el) => el.contains(document.activeElement)));
      assert.match(await dialog.innerText(), /Focus the page's search field/);
      await assertNoAxeViolations(page);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      assert.equal(await focusedText(page), "Logs");

      await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Close" }).click();
      await dialog.waitFor({ state: "hidden" });
      assert.match((await focusedText(page)) ?? "", /^Keyboard shortcuts/);

      const path = page.getByTestId("path");
      // The path tester may hydrate after the theme toggle: clear the field until it reacts.
      await untilHydrated(
        "the path tester",
        () => path.fill(""),
        () => page.getByTestId("error").isVisible(),
      );
      await path.press("?");
      assert.equal(await path.inputValue(), "?", "typing ? in a field types it");
      assert.equal(await dialog.isVisible(), false);

      await page.evaluate(() => {
        const search = document.createElement("input");
        search.setAttribute("data-search", "");
        search.setAttribute("aria-label", "Search");
        document.querySelector("main")!.prepend(search);
        (document.activeElement as HTMLElement | null)?.blur();
      });
      await page.keyboard.press("/");
      assert.ok(
        await page.getByRole("textbox", { name: "Search" }).evaluate((el) =>
          el === document.activeElement
        ),
      );
      assert.equal(await page.getByRole("textbox", { name: "Search" }).inputValue(), "");
    });
  },
});

Deno.test({
  name: "confirmation: a form marked data-confirm asks first; Esc cancels, Confirm submits",
  ignore: !hasChromium,
  async fn() {
    await withBrowser(DEBUG, async (page, base) => {
      await page.goto(`${base}/admin/groups`);
      await hydrated(page);
      await page.evaluate(() => {
        const form = document.createElement("form");
        form.action = "/admin/logs";
        form.method = "get";
        form.dataset.confirm = "Delete group web?";
        form.dataset.confirmDetail = "Its routes go with it.";
        form.innerHTML = '<input type="hidden" name="deleted" value="web">' +
          "<button type=submit>Delete</button>";
        document.querySelector("main")!.append(form);
      });
      const dialog = page.getByRole("dialog", { name: "Delete group web?" });
      const remove = page.getByRole("button", { name: "Delete", exact: true });
      await remove.click();
      await dialog.waitFor();
      assert.match(await dialog.innerText(), /Its routes go with it\./);
      assert.equal(await focusedText(page), "Cancel", "Cancel has the focus first");
      await assertNoAxeViolations(page);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      assert.equal(new URL(page.url()).pathname, "/admin/groups", "nothing was submitted");
      assert.equal(await focusedText(page), "Delete", "focus is back on the button");

      await remove.click();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await page.waitForURL(/\/admin\/logs\?deleted=web$/);
    });
  },
});

Deno.test({
  name: "toasts: results show in the shared status region and can be dismissed",
  ignore: !hasChromium,
  async fn() {
    await withBrowser(DEBUG, async (page, base) => {
      await page.goto(`${base}/admin?invite=ok`);
      const status = page.getByRole("status");
      await status.getByText("You joined the group.").waitFor();
      await hydrated(page);
      await page.evaluate(() =>
        dispatchEvent(
          new CustomEvent("switchyard:toast", {
            detail: { message: "Could not save: the route changed", tone: "error" },
          }),
        )
      );
      await status.getByText("Could not save: the route changed").waitFor();
      await assertNoAxeViolations(page);
      await status.getByRole("button", { name: "Dismiss message" }).last().click();
      await status.getByText("Could not save").waitFor({ state: "detached" });
    });
  },
});

Deno.test({
  name: "group switcher: picking a group opens the page for it",
  ignore: !hasChromium,
  async fn() {
    await withBrowser(DEBUG, async (page, base, app) => {
      const owner = { userId: "1", login: "olivia", role: "owner" as const };
      await putGroup(app.kv, { id: "web", name: "Web team", members: [owner] });
      await putGroup(app.kv, { id: "infra", name: "Infrastructure", members: [owner] });
      await page.goto(`${base}/admin/logs`);
      const group = page.getByLabel("Group", { exact: true });
      assert.deepEqual(await group.locator("option").allInnerTexts(), [
        "All groups",
        "Infrastructure (infra)",
        "Web team (web)",
      ]);
      await group.selectOption("web");
      await page.getByRole("button", { name: "Switch" }).click();
      await page.waitForURL(/\/admin\/logs\?group=web$/);
      assert.equal(await group.inputValue(), "web");
    });
  },
});

Deno.test({
  name: "every console page: no overflow at 390 px, no axe violation in light or dark",
  ignore: !hasChromium,
  async fn() {
    await withBrowser(DEBUG, async (page, base, app) => {
      const owner = { userId: "1", login: "olivia", role: "owner" as const };
      await putGroup(app.kv, {
        id: "a-group-with-a-rather-long-identifier",
        name: "A group whose name is long enough to wrap",
        members: [owner],
      });
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const path of CONSOLE_PAGES) {
          await page.setViewportSize({ width: 390, height: 844 });
          await page.goto(`${base}${path}`);
          await hydrated(page);
          assert.equal(await isDark(page), scheme === "dark");
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width <= 390, `${path} is ${width}px wide at 390 (${scheme})`);
          await assertNoAxeViolations(page);
          await page.setViewportSize({ width: 1440, height: 900 });
          await assertNoAxeViolations(page);
        }
      }
    });
  },
});
