/**
 * Browser tests of the console's routes pages, driven as a person would: the route list
 * (reorder, toggle, duplicate, delete, conflicts), the route editor with its filter-tree
 * editor and live explanation, fragments, the keyboard-only path, accessibility (axe, light
 * and dark) and the 390 px width. Skipped when chromium is not installed.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { putGroup } from "../../lib/store/config/groups.ts";
import type { FilterNode, Fragment, Group, Route } from "../../lib/types.ts";
import {
  assertNoAxeViolations,
  hasChromium,
  startConsoleApp,
  untilHydrated,
  withChromium,
} from "../_browser.ts";
import { type TestApp } from "../_helpers.ts";

const ALPHA: Group = {
  id: "alpha",
  name: "Alpha",
  members: [{ userId: "1", login: "olivia", role: "owner" }],
};
const BETA: Group = {
  id: "beta",
  name: "Beta",
  members: [{ userId: "1", login: "olivia", role: "owner" }],
};
const CHANNEL = "123456789012345678";

function route(id: string, name: string, extra: Partial<Route> = {}): Route {
  return {
    id,
    name,
    enabled: true,
    groupId: "alpha",
    filters: [{ type: "event", value: "push" }],
    targets: [{ platform: "discord", channelId: CHANNEL }],
    ...extra,
  };
}

/** The app (DEBUG_MODE: a super admin) with groups alpha and beta, in chromium. */
async function withConsole(
  run: (page: Page, base: string, app: TestApp) => Promise<void>,
  routes: Route[] = [],
  expectedErrors?: RegExp,
) {
  await using app = await startConsoleApp({ DEBUG_MODE: "true" });
  await putGroup(app.kv, ALPHA);
  await putGroup(app.kv, BETA);
  if (routes.length > 0) await putRoutes(app, "alpha", routes);
  await withChromium(
    app.app.fetch,
    (page, base) => run(page, base, app),
    expectedErrors ? [expectedErrors] : [],
  );
}

async function api(app: TestApp, method: string, path: string, body?: unknown) {
  const res = await app.fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function putRoutes(app: TestApp, groupId: string, routes: Route[]) {
  await api(app, "PUT", `/admin/api/groups/${groupId}/routes`, { routes });
}

async function storedRoutes(app: TestApp, groupId = "alpha"): Promise<Route[]> {
  return (await api(app, "GET", `/admin/api/groups/${groupId}/routes`)).routes;
}

async function storedFragments(app: TestApp): Promise<Fragment[]> {
  return (await api(app, "GET", "/admin/api/groups/alpha/fragments")).fragments;
}

/** Opens a page and waits until its island has hydrated. */
async function open(page: Page, url: string) {
  await page.goto(url);
  await page.locator("[data-ready=true]").waitFor();
}

/** Opens the route editor and waits until the sample event is explained. */
async function openEditor(page: Page, url: string) {
  await open(page, url);
  await page.locator("[data-testid=verdict-summary]:not([data-matched=unknown])").waitFor();
}

/** The tree's nodes of one kind (`event`, `field`, `all` …). */
function nodes(page: Page, kind: string): Locator {
  return page.locator(`[data-testid=node][data-kind=${kind}]`);
}

/** The verdict badge of a node (not of its children). */
function verdictOf(node: Locator): Locator {
  return node.locator(":scope > div > [data-testid=verdict]");
}

async function waitForMatched(page: Page, matched: boolean) {
  await page.locator(`[data-testid=verdict-summary][data-matched=${matched}]`).waitFor();
}

/** Waits for the status message `text`, then dismisses it (so the next wait sees a new one). */
async function expectStatus(page: Page, text: string | RegExp) {
  const status = page.getByTestId("status");
  await status.getByText(text).waitFor();
  await status.getByRole("button", { name: "Dismiss message" }).click();
  await status.getByText(text).waitFor({ state: "detached" });
}

/** Every element in <main> fits in the viewport's width (no horizontal overflow). */
async function assertFitsWidth(page: Page, width: number) {
  const widest = await page.evaluate(() => {
    const main = document.querySelector("main")!;
    let right = main.getBoundingClientRect().right;
    for (const element of main.querySelectorAll("*")) {
      const box = element.getBoundingClientRect();
      if (box.width > 0) right = Math.max(right, box.right);
    }
    return Math.ceil(right);
  });
  assert.ok(widest <= width, `content reaches ${widest}px in a ${width}px window`);
}

/** Presses Tab (Shift+Tab when `back`) until the focused element's name matches. */
async function tabTo(page: Page, name: RegExp, back = false) {
  for (let presses = 0; presses < 120; presses++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element) return "";
      const label = (element as HTMLInputElement).labels?.[0];
      const labelled = element.getAttribute("aria-label") ?? label?.textContent ??
        element.textContent ?? "";
      return labelled.trim();
    });
    if (name.test(focused)) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

Deno.test({
  name:
    "routes: building pull_request.opened + label bug → Discord with the tree editor turns the explanation green and saves",
  ignore: !hasChromium,
  async fn() {
    await withConsole(async (page, base, app) => {
      await page.goto(`${base}/admin/routes`);
      await page.getByRole("link", { name: "Alpha" }).click();
      await page.getByRole("link", { name: "New route" }).click();
      await openEditor(page, page.url());

      await page.getByLabel("Name", { exact: true }).fill("Bug PRs to #dev");
      assert.equal(await page.getByLabel("Route id").inputValue(), "bug-prs-to-dev");
      await page.getByLabel("Channel id").fill("not-a-channel");
      await page.getByText("must be a Discord id (digits)").waitFor();
      await page.getByLabel("Channel id").fill(CHANNEL);
      assert.equal(await page.getByText("must be a Discord id (digits)").count(), 0);

      await page.getByRole("button", { name: "+ Event filter in the all group" }).click();
      const event = nodes(page, "event");
      await event.getByLabel("Event kind", { exact: true }).fill("pull_request");
      await event.getByLabel("Action", { exact: true }).fill("closed");
      await waitForMatched(page, false);
      assert.equal(await verdictOf(event).getAttribute("data-matched"), "false");
      await event.getByLabel("Action", { exact: true }).fill("opened");
      await waitForMatched(page, true);

      await page.getByRole("button", { name: "+ Field filter in the all group" }).click();
      const field = nodes(page, "field");
      await field.getByLabel("Path", { exact: true }).fill("pull_request.labels[*].name");
      await field.getByLabel("Operator", { exact: true }).selectOption("eq");
      await field.getByLabel("Value", { exact: true }).fill("feature");
      await waitForMatched(page, false);
      assert.match(await field.getByTestId("reason").innerText(), /no value equals it/);
      assert.match(await field.getByTestId("found").innerText(), /"bug"/);
      await field.getByLabel("Value", { exact: true }).fill("bug");
      await waitForMatched(page, true);
      assert.equal(await verdictOf(field).getAttribute("data-matched"), "true");
      assert.equal(await verdictOf(event).getAttribute("data-matched"), "true");
      await page.locator("[data-testid=server-check][data-ok=true]").waitFor();
      await page.getByTestId("discord-preview").getByText(/Update the README/).waitFor();
      await page.getByTestId("telegram-preview").getByText(/Update the README/).waitFor();

      await page.getByRole("button", { name: "Create route" }).click();
      await page.waitForURL(
        /\/admin\/routes\/alpha\/edit\/bug-prs-to-dev\?saved=1&sample=pull_request\.opened$/,
      );
      await expectStatus(page, "Route saved");

      const [saved] = await storedRoutes(app);
      assert.deepEqual(saved, {
        id: "bug-prs-to-dev",
        name: "Bug PRs to #dev",
        enabled: true,
        groupId: "alpha",
        filters: [],
        ast: {
          all: [
            { type: "event", value: "pull_request.opened" },
            { type: "field", path: "pull_request.labels[*].name", value: "bug" },
          ],
        },
        targets: [{ platform: "discord", channelId: CHANNEL }],
      });
    });
  },
});

Deno.test({
  name: "routes: the JSON view and the tree stay in sync; limits and row errors show",
  ignore: !hasChromium,
  async fn() {
    await withConsole(async (page, base) => {
      await openEditor(page, `${base}/admin/routes/alpha/edit/deploys`);
      await page.getByText("JSON", { exact: true }).click();
      const json = page.getByTestId("tree-json");
      assert.deepEqual(JSON.parse(await json.inputValue()), {
        all: [{ type: "event", value: "push" }],
      });

      const tree: FilterNode = {
        any: [
          { type: "event", value: "push" },
          { not: { type: "field", path: "ref", op: "regex", value: "(" } },
        ],
      };
      await json.fill(JSON.stringify(tree));
      await nodes(page, "not").waitFor();
      const bad = nodes(page, "field");
      await bad.getByText(/invalid regex/).waitFor();
      assert.equal(
        await bad.getByLabel("Value", { exact: true }).getAttribute("aria-invalid"),
        "true",
      );
      assert.equal(await verdictOf(bad).getAttribute("data-matched"), "unknown");

      await bad.getByLabel("Value", { exact: true }).fill("^refs/heads/");
      await page.waitForFunction(() =>
        (document.querySelector("[data-testid=tree-json]") as HTMLTextAreaElement).value
          .includes("^refs/heads/")
      );
      await json.fill("{ not json");
      await page.getByTestId("tree-json-status").getByText(/Not valid JSON/).waitFor();
      await json.fill('{"all": [], "any": []}');
      await page.getByTestId("tree-json-status").getByText(/Not a filter tree/).waitFor();
      assert.equal(await nodes(page, "not").count(), 1, "the tree keeps its last good state");

      const many = { all: Array.from({ length: 63 }, () => ({ type: "event", value: "push" })) };
      await json.fill(JSON.stringify(many));
      await page.getByTestId("limits").getByText("63 of 64 filters").waitFor();
      await page.getByRole("button", { name: "+ Event filter in the all group" }).click();
      await page.getByTestId("limits").getByText("64 of 64 filters").waitFor();
      assert.ok(
        await page.getByRole("button", { name: "+ Field filter in the all group" })
          .isDisabled(),
      );
      await page.getByTestId("limit-reason").getByText(/at most 64 filters/).waitFor();
    }, [route("deploys", "Deploys")]);
  },
});

Deno.test({
  name:
    "routes: the list reorders by keyboard and by drag, toggles, duplicates and deletes with confirmation",
  ignore: !hasChromium,
  async fn() {
    await withConsole(async (page, base, app) => {
      await open(page, `${base}/admin/routes/alpha`);
      const names = () => page.getByTestId("route-name").allInnerTexts();
      assert.deepEqual(await names(), ["One", "Two", "Three"]);

      await page.getByRole("button", { name: "Move down: One" }).focus();
      await page.keyboard.press("Enter");
      await page.getByTestId("status").getByText(/Moved "One" to position 2/).waitFor();
      assert.deepEqual(await names(), ["Two", "One", "Three"]);
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
        "Move down: One",
        "focus stays on the moved route's button",
      );
      await expectStatus(page, /Moved "One" to position 2/);
      assert.deepEqual((await storedRoutes(app)).map((r) => r.name), ["Two", "One", "Three"]);

      const rows = page.getByTestId("route-row");
      await rows.nth(2).dragTo(rows.nth(0), { targetPosition: { x: 20, y: 5 } });
      await expectStatus(page, /Moved "Three" to position 1/);
      assert.deepEqual((await storedRoutes(app)).map((r) => r.name), ["Three", "Two", "One"]);

      await page.getByRole("switch", { name: "Enabled: Two" }).click();
      await expectStatus(page, 'Disabled "Two"');
      assert.equal((await storedRoutes(app)).find((r) => r.id === "two")?.enabled, false);

      await page.getByRole("button", { name: "Duplicate: One" }).click();
      await expectStatus(page, /Duplicated "One"/);
      const copy = (await storedRoutes(app)).find((r) => r.id === "one-copy");
      assert.equal(copy?.name, "Copy of One");
      assert.equal(copy?.enabled, false);

      await page.getByRole("button", { name: "Delete: Three" }).click();
      const dialog = page.getByTestId("confirm-delete");
      await dialog.getByText(/“Three” stops sending/).waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      assert.equal((await storedRoutes(app)).length, 4);
      await page.getByRole("button", { name: "Delete: Three" }).click();
      await dialog.getByRole("button", { name: "Delete route" }).click();
      await expectStatus(page, 'Deleted "Three"');
      assert.deepEqual((await storedRoutes(app)).map((r) => r.id), ["two", "one", "one-copy"]);
    }, [route("one", "One"), route("two", "Two"), route("three", "Three")]);
  },
});

Deno.test({
  name: "routes: a save after someone else's change shows what changed; reload and overwrite",
  ignore: !hasChromium,
  async fn() {
    await withConsole(
      async (page, base, app) => {
        // Editor: another admin adds a route between load and save.
        await openEditor(page, `${base}/admin/routes/alpha/edit/deploys`);
        await page.getByLabel("Name", { exact: true }).fill("Deploys (edited)");
        await putRoutes(app, "alpha", [route("deploys", "Deploys"), route("hotfix", "Hotfixes")]);
        await page.getByRole("button", { name: "Save route" }).click();
        const conflict = page.getByTestId("conflict");
        await conflict.getByTestId("diff-added").getByText("Hotfixes").waitFor();
        await conflict.getByRole("button", { name: "Reload" }).click();
        await conflict.waitFor({ state: "hidden" });
        assert.equal(await page.getByLabel("Name", { exact: true }).inputValue(), "Deploys");
        await page.getByLabel("Name", { exact: true }).fill("Deploys to prod");
        await page.getByRole("button", { name: "Save route" }).click();
        await expectStatus(page, "Route saved");
        assert.deepEqual(
          (await storedRoutes(app)).map((r) => r.name),
          ["Deploys to prod", "Hotfixes"],
        );

        // A change in another group only: saved again without asking.
        await putRoutes(app, "beta", [route("b", "B", { groupId: "beta" })]);
        await page.getByLabel("Name", { exact: true }).fill("Deploys");
        await page.getByRole("button", { name: "Save route" }).click();
        await expectStatus(page, "Route saved");
        assert.equal((await storedRoutes(app))[0].name, "Deploys");

        // Editor: overwrite their change to this route.
        await page.getByLabel("Name", { exact: true }).fill("Mine");
        await putRoutes(app, "alpha", [route("deploys", "Theirs"), route("hotfix", "Hotfixes")]);
        await page.getByRole("button", { name: "Save route" }).click();
        await conflict.getByTestId("diff-changed").getByText("Theirs").waitFor();
        await conflict.getByRole("button", { name: "Overwrite their changes" }).click();
        await expectStatus(page, "Route saved");
        assert.deepEqual((await storedRoutes(app)).map((r) => r.name), ["Mine", "Hotfixes"]);

        // List: a route removed elsewhere while the list is open.
        await open(page, `${base}/admin/routes/alpha`);
        await putRoutes(app, "alpha", [route("deploys", "Mine")]);
        await page.getByRole("switch", { name: "Enabled: Mine" }).click();
        await conflict.getByTestId("diff-removed").getByText("Hotfixes").waitFor();
        await conflict.getByRole("button", { name: "Reload" }).click();
        assert.deepEqual(await page.getByTestId("route-name").allInnerTexts(), ["Mine"]);
        assert.equal((await storedRoutes(app))[0].enabled, true);
      },
      [route("deploys", "Deploys")],
      /status of 409 \(Conflict\)/,
    );
  },
});

Deno.test({
  name: "routes: keyboard only: Tab, Enter and Space add a filter and save a route",
  ignore: !hasChromium,
  async fn() {
    await withConsole(async (page, base, app) => {
      await openEditor(page, `${base}/admin/routes/alpha/new`);
      await tabTo(page, /^Name$/);
      await page.keyboard.type("Pushes");
      await tabTo(page, /^Channel id$/);
      await page.keyboard.type(CHANNEL);
      await tabTo(page, /^\+ Event filter in the all group$/);
      await page.keyboard.press("Enter");
      // Focus moves to the new filter once it is shown.
      await page.waitForFunction(() => document.activeElement?.id.endsWith("-event-0"));
      await page.keyboard.press("Control+A");
      await page.keyboard.type("issues");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Control+A");
      await page.keyboard.type("opened");
      await waitForMatched(page, false);
      await tabTo(page, /^Create route$/, true);
      await page.keyboard.press("Space");
      await page.waitForURL(/\/edit\/pushes\?saved=1&sample=pull_request\.opened$/);
      const [saved] = await storedRoutes(app);
      assert.deepEqual(saved.ast, { all: [{ type: "event", value: "issues.opened" }] });
    });
  },
});

Deno.test({
  name: "routes: a subtree saved as a fragment is inserted as a copy into another route",
  ignore: !hasChromium,
  async fn() {
    const labelled: FilterNode = {
      all: [
        { type: "event", value: "pull_request.opened" },
        {
          any: [
            {
              type: "field",
              path: "pull_request.labels[*].name",
              op: "in",
              value: ["bug", "crash"],
            },
          ],
        },
      ],
    };
    await withConsole(async (page, base, app) => {
      await openEditor(page, `${base}/admin/routes/alpha/edit/bugs`);
      await page.getByRole("button", { name: "Select: any group" }).click();
      await page.getByLabel(/Save the selected any group as a fragment/).fill("Bug labels");
      await page.getByRole("button", { name: "Save as fragment" }).click();
      await expectStatus(page, "Saved fragment “Bug labels”");
      assert.deepEqual(await storedFragments(app), [{
        id: "bug-labels",
        groupId: "alpha",
        name: "Bug labels",
        node: labelled.all[1],
      }]);

      await openEditor(page, `${base}/admin/routes/alpha/edit/pushes`);
      await page.getByTestId("fragment").getByText("Bug labels").waitFor();
      await page.getByRole("button", { name: "Insert fragment Bug labels" }).click();
      await expectStatus(page, "Inserted a copy of “Bug labels”");
      await nodes(page, "any").waitFor();
      const field = nodes(page, "field");
      assert.equal(
        await field.getByLabel("Path", { exact: true }).inputValue(),
        "pull_request.labels[*].name",
      );
      assert.deepEqual(await field.getByTestId("chip-text").allInnerTexts(), ["bug", "crash"]);
      await page.getByRole("button", { name: "Save route" }).click();
      await expectStatus(page, "Route saved");
      const pushes = (await storedRoutes(app)).find((r) => r.id === "pushes");
      assert.deepEqual(pushes?.ast, { all: [{ type: "event", value: "push" }, labelled.all[1]] });

      await page.getByRole("button", { name: "Delete fragment Bug labels" }).click();
      await page.getByTestId("confirm-fragment-delete")
        .getByRole("button", { name: "Delete fragment" }).click();
      await expectStatus(page, "Deleted fragment “Bug labels”");
      assert.deepEqual(await storedFragments(app), []);
    }, [
      route("bugs", "Bugs", { filters: [], ast: labelled }),
      route("pushes", "Pushes"),
    ]);
  },
});

Deno.test({
  name:
    "routes: axe finds no violation on the routes pages, light and dark, and nothing overflows 390 px",
  ignore: !hasChromium,
  async fn() {
    await withConsole(async (page, base) => {
      const pages = [
        "/admin/routes",
        "/admin/routes/alpha",
        "/admin/routes/alpha/edit/bugs",
        "/admin/routes/alpha/new",
      ];
      for (const dark of [false, true]) {
        await page.emulateMedia({ colorScheme: dark ? "dark" : "light" });
        for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
          await page.setViewportSize(size);
          for (const path of pages) {
            await page.goto(`${base}${path}`);
            if (path !== "/admin/routes") await page.locator("[data-ready=true]").waitFor();
            if (dark) {
              await page.evaluate(() => document.documentElement.classList.add("dark"));
            }
            await assertNoAxeViolations(page);
            if (size.width === 390) await assertFitsWidth(page, 390);
          }
        }
      }
    }, [
      route("bugs", "Bugs", {
        filters: [],
        ast: {
          all: [
            { type: "event", value: ["pull_request.opened", "issues.opened"] },
            { not: { type: "field", path: "sender.login", op: "endsWith", value: "[bot]" } },
            { type: "field", path: "pull_request.labels[*].name", op: "in", value: ["bug"] },
          ],
        },
      }),
      route("rest", "Everything else", { filters: [], fallback: true, enabled: false }),
    ]);
  },
});

Deno.test({
  name: "routes: a filter is dragged by its handle to another place in its group",
  ignore: !hasChromium,
  async fn() {
    const tree: FilterNode = {
      all: [
        { type: "event", value: "pull_request.opened" },
        { type: "field", path: "pull_request.draft", op: "eq", value: false },
        { type: "field", path: "pull_request.labels[*].name", op: "eq", value: "bug" },
      ],
    };
    await withConsole(async (page, base, app) => {
      await openEditor(page, `${base}/admin/routes/alpha/edit/bugs`);
      const paths = () =>
        nodes(page, "field").evaluateAll((rows) =>
          rows.map((row) => (row.querySelector("input[id$=-path]") as HTMLInputElement).value)
        );
      assert.deepEqual(await paths(), ["pull_request.draft", "pull_request.labels[*].name"]);
      // The whole tree in view: a drag starts only from a handle on screen.
      await page.setViewportSize({ width: 1280, height: 2000 });
      const moved = ["pull_request.labels[*].name", "pull_request.draft"];
      // A drag that a busy browser did not start has changed nothing, so it is tried again.
      await untilHydrated(
        "the dragged filter to move",
        () =>
          nodes(page, "field").nth(1).getByTestId("drag-handle").dragTo(nodes(page, "event"), {
            targetPosition: { x: 40, y: 4 },
          }),
        async () => JSON.stringify(await paths()) === JSON.stringify(moved),
      );
      assert.equal(
        await page.locator("[data-testid=node][data-kind=all] > ol > li").first()
          .getAttribute("data-kind"),
        "field",
      );
      await waitForMatched(page, true);
      await page.getByRole("button", { name: "Save route" }).click();
      await expectStatus(page, "Route saved");
      const [saved] = await storedRoutes(app);
      assert.deepEqual(saved.ast, { all: [tree.all[2], tree.all[0], tree.all[1]] });
    }, [route("bugs", "Bugs", { filters: [], ast: tree })]);
  },
});

Deno.test({
  name:
    "routes: a new field filter is `equals`, quiet until a field is left, labelled Value, suggests sample paths, and the chosen sample stays after saving",
  ignore: !hasChromium,
  async fn() {
    await withConsole(async (page, base, app) => {
      await openEditor(page, `${base}/admin/routes/alpha/new`);
      await page.locator("#sample-source").selectOption("release.published");
      await page.waitForFunction(() =>
        (document.querySelector("[data-testid=sample-payload]") as HTMLTextAreaElement).value
          .includes('"tag_name"')
      );
      await page.getByLabel("Name", { exact: true }).fill("Releases");
      await page.getByLabel("Channel id").fill(CHANNEL);

      await page.getByRole("button", { name: "+ Field filter in the all group" }).click();
      const field = nodes(page, "field");
      const path = field.getByLabel("Path", { exact: true });
      await page.waitForFunction(() => document.activeElement?.id.endsWith("-path"));
      assert.equal(await field.getByLabel("Operator", { exact: true }).inputValue(), "eq");
      assert.equal(await field.locator("[aria-invalid=true]").count(), 0, "no error yet");
      assert.equal(await field.getByText(/invalid JSONPath/).count(), 0);
      assert.doesNotMatch(await page.getByTestId("verdict-summary").innerText(), /to fix/);
      await assertNoAxeViolations(page);

      // The path suggestions are the sample's paths.
      const listId = await path.getAttribute("list");
      assert.ok(listId);
      const offered = await page.locator(`datalist#${listId} option`).evaluateAll((options) =>
        options.map((option) => (option as HTMLOptionElement).value)
      );
      assert.ok(offered.includes("release.tag_name"), "the release sample's paths are offered");

      // Leaving the empty path shows its problem.
      await page.keyboard.press("Tab");
      await field.getByText(/invalid JSONPath: empty path/).waitFor();
      assert.equal(await path.getAttribute("aria-invalid"), "true");

      // The long path fits its box.
      await path.fill("pull_request.labels[*].name");
      assert.ok(
        await path.evaluate((input) => input.scrollWidth <= input.clientWidth),
        "pull_request.labels[*].name fits the Path box",
      );
      await path.fill("release.tag_name");
      const operator = field.getByLabel("Operator", { exact: true });
      for (const op of ["contains", "regex", "gt", "in", "exists", "eq"]) {
        await operator.selectOption(op);
        assert.equal(await field.getByText("Value", { exact: true }).count(), 1, op);
      }
      await field.getByLabel("Value", { exact: true }).fill("0.0.2");
      await waitForMatched(page, false);
      await field.getByLabel("Value", { exact: true }).fill("0.0.1");
      await waitForMatched(page, true);

      await page.getByRole("button", { name: "Create route" }).click();
      await page.waitForURL(/\/edit\/releases\?saved=1&sample=release\.published$/);
      await openEditor(page, page.url());
      assert.equal(await page.locator("#sample-source").inputValue(), "release.published");
      await waitForMatched(page, true);
      await page.getByTestId("status").getByText("Route saved").waitFor();
      const [saved] = await storedRoutes(app);
      assert.deepEqual(saved.ast, {
        all: [{ type: "field", path: "release.tag_name", value: "0.0.1" }],
      });
      await assertNoAxeViolations(page);

      // A pasted sample stays too.
      await open(page, `${base}/admin/routes/alpha/new`);
      await page.getByTestId("sample-payload").fill(
        JSON.stringify({ action: "deployed", service: { name: "api" } }),
      );
      await page.getByLabel("Name", { exact: true }).fill("Deploys");
      await page.getByLabel("Channel id").fill(CHANNEL);
      await page.getByRole("button", { name: "+ Field filter in the all group" }).click();
      await nodes(page, "field").getByLabel("Path", { exact: true }).fill("service.name");
      await nodes(page, "field").getByLabel("Value", { exact: true }).fill("api");
      await waitForMatched(page, true);
      await page.getByRole("button", { name: "Create route" }).click();
      await page.waitForURL(/\/edit\/deploys\?saved=1&sample=pasted$/);
      await openEditor(page, page.url());
      assert.equal(await page.locator("#sample-source").inputValue(), "pasted");
      assert.match(await page.getByTestId("sample-payload").inputValue(), /"deployed"/);
      await waitForMatched(page, true);
    });
  },
});
