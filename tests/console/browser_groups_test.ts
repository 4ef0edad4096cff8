/**
 * Browser tests of the console's group pages, driven as a person would: create a group, copy
 * its webhook URL and secret (and prove the secret verifies a signed webhook), invite, change
 * roles and remove members (the last owner refused), allowed targets, rename and delete with
 * confirmation. Every state passes axe-core in light and dark mode and at 390 px.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { utf8 } from "../../lib/encoding.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import { getAllowedTargets } from "../../lib/store/config/allowed_targets.ts";
import { getGroup, listGroups, putGroup } from "../../lib/store/config/groups.ts";
import { listInvites } from "../../lib/store/config/invites.ts";
import { getRoutes, replaceRoutes } from "../../lib/store/config/routes.ts";
import { createSession } from "../../lib/store/auth/sessions.ts";
import { getGroupSecret, regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { ALPHA, BETA, PEOPLE, type Person, route } from "../_admin_helpers.ts";
import { assertGoodEverywhere, hasChromium, startConsoleApp, withChromium } from "../_browser.ts";

interface Console {
  page: Page;
  base: string;
  kv: Kv;
}

/**
 * Runs `run` in chromium against the app with built assets: as the DEBUG_MODE super admin,
 * or signed in as `as`. `seed` fills the KV first.
 */
async function withConsole(
  options: {
    as?: Person;
    seed?: (kv: Kv) => Promise<void>;
    expectedErrors?: RegExp;
  },
  run: (console: Console) => Promise<void>,
) {
  const env: Record<string, string> = options.as ? {} : { DEBUG_MODE: "true" };
  await using app = await startConsoleApp(env);
  await options.seed?.(app.kv);
  await withChromium(app.app.fetch, async (page, base) => {
    if (options.as) {
      const { sessionId } = await createSession(app.kv, options.as);
      await page.context().addCookies([{
        name: "switchyard_session",
        value: sessionId,
        url: base,
      }]);
    }
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    await run({ page, base, kv: app.kv });
  }, options.expectedErrors ? [options.expectedErrors] : []);
}

const readClipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** Posts a GitHub push signed with `secret` to the address; answers the status. */
async function sendSignedPush(url: string, secret: string): Promise<number> {
  const body = utf8(JSON.stringify({ ref: "refs/heads/main", repository: { full_name: "a/b" } }));
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "push",
      "x-github-delivery": crypto.randomUUID(),
      "x-hub-signature-256": await signGithubBody(secret, body),
    },
    body,
  });
  await res.body?.cancel();
  return res.status;
}

Deno.test({
  name:
    "groups console: create a group, copy its webhook URL, and the secret shown verifies a signed webhook",
  ignore: !hasChromium,
  async fn() {
    await withConsole({}, async ({ page, base, kv }) => {
      await page.goto(`${base}/admin/groups`);
      await page.getByText("No groups yet.").waitFor();
      await assertGoodEverywhere(page);

      await page.getByLabel("Name", { exact: true }).fill("Backend team");
      assert.equal(await page.getByLabel("Id", { exact: true }).inputValue(), "backend-team");
      await page.getByRole("button", { name: "Create group" }).click();
      await page.waitForURL(`${base}/admin/groups/backend-team?created=1`);
      await page.getByRole("status").filter({ hasText: "Group created." }).waitFor();
      assert.deepEqual(await getGroup(kv, "backend-team"), {
        id: "backend-team",
        name: "Backend team",
        members: [{ userId: "debug", login: "debug", role: "owner" }],
      });
      await assertGoodEverywhere(page);

      const shownUrl = await page.getByLabel("Payload URL").inputValue();
      assert.equal(shownUrl, "http://localhost:8000/webhook/backend-team");
      await page.getByRole("button", { name: "Copy webhook URL" }).click();
      await page.getByTestId("copy-webhook-url").filter({ hasText: "Copied" }).waitFor();
      assert.equal(await readClipboard(page), shownUrl);
      const ingress = `${base}${new URL(shownUrl).pathname}`;
      assert.equal(await sendSignedPush(ingress, "no secret yet"), 404);

      await page.getByRole("button", { name: "Generate secret" }).click();
      await page.getByTestId("secret-reveal").waitFor();
      const secret = await page.getByTestId("secret").inputValue();
      assert.match(secret, /^[0-9a-f]{64}$/);
      assert.match(
        await page.getByTestId("secret-reveal").innerText(),
        /it will not be shown again/,
      );
      await page.getByRole("button", { name: "Copy secret" }).click();
      await page.getByTestId("copy-secret").filter({ hasText: "Copied" }).waitFor();
      assert.equal(await readClipboard(page), secret);
      assert.equal(await page.getByTestId("webhook-state").innerText(), "On");
      await assertGoodEverywhere(page);
      assert.equal(await sendSignedPush(ingress, secret), 200);
      assert.equal(await sendSignedPush(ingress, "f".repeat(64)), 401);

      const regenerate = page.getByRole("button", { name: "Regenerate secret…" });
      await regenerate.click();
      const dialog = page.getByRole("dialog", { name: "Regenerate the secret?" });
      await dialog.waitFor();
      await assertGoodEverywhere(page);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        "Regenerate secret…",
      );
      assert.equal(
        (await getGroupSecret(kv, "backend-team"))?.secret,
        secret,
        "Esc changed nothing",
      );

      await regenerate.click();
      const grace = dialog.getByLabel("Keep the current secret working for");
      assert.equal(await grace.inputValue(), String(24 * 3600), "24 hours by default");
      await grace.selectOption({ label: "1 hour" });
      await dialog.getByRole("button", { name: "Regenerate secret", exact: true }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.getByTestId("secret").and(page.locator(`:not([value="${secret}"])`)).waitFor();
      const next = await page.getByTestId("secret").inputValue();
      assert.notEqual(next, secret);
      assert.equal(await sendSignedPush(ingress, next), 200);
      assert.equal(await sendSignedPush(ingress, secret), 200, "the old one during its grace");

      await page.reload();
      const previous = page.getByTestId("secret-previous");
      assert.match(await previous.innerText(), /Previous[\s\S]*last used [\d-]+ [\d:]+ UTC/);
      assert.match(await previous.innerText(), /in under an hour|in about an hour/);
      assert.match(
        await page.getByTestId("secret-current").innerText(),
        /Current[\s\S]*last used [\d-]+ [\d:]+ UTC/,
      );
      await assertGoodEverywhere(page);
      await page.getByRole("button", { name: "Revoke previous secret…" }).click();
      const revokeDialog = page.getByRole("dialog", { name: "Revoke the previous secret?" });
      await revokeDialog.waitFor();
      await assertGoodEverywhere(page);
      await revokeDialog.getByRole("button", { name: "Revoke previous secret", exact: true })
        .click();
      await page.getByTestId("webhook-status").filter({ hasText: "Previous secret revoked" })
        .waitFor();
      assert.equal(await previous.count(), 0);
      assert.equal(await sendSignedPush(ingress, secret), 401, "refused once revoked");
      assert.equal(await sendSignedPush(ingress, next), 200);

      await page.reload();
      assert.equal(await page.getByTestId("secret-reveal").count(), 0, "shown only once");
      await page.goto(`${base}/admin/groups`);
      const row = page.getByTestId("group-backend-team");
      assert.match(await row.innerText(), /Backend team\s+backend-team[\s\S]*owner[\s\S]*On/);
    });
  },
});

Deno.test({
  name:
    "groups console: an owner invites, changes a role (reloaded after a conflict), removes a member, and cannot drop the last owner",
  ignore: !hasChromium,
  async fn() {
    const seed = async (kv: Kv) => {
      await putGroup(kv, ALPHA);
      await putGroup(kv, BETA);
    };
    await withConsole(
      { as: PEOPLE.owner, seed, expectedErrors: /status of 40[09]/ },
      async ({ page, base, kv }) => {
        await page.goto(`${base}/admin/groups`);
        assert.deepEqual(await page.getByTestId(/^group-/).evaluateAll((rows) => rows.length), 1);
        await page.getByRole("link", { name: "Alpha" }).click();
        await page.waitForURL(`${base}/admin/groups/alpha`);
        await assertGoodEverywhere(page);

        await page.getByLabel("Role", { exact: true }).selectOption("admin");
        await page.getByRole("button", { name: "Create invite link" }).click();
        await page.getByTestId("new-invite").waitFor();
        const [invite] = await listInvites(kv, "alpha");
        assert.equal(invite.role, "admin");
        const link = await page.getByLabel(/New invite link/).inputValue();
        assert.equal(
          link,
          `http://localhost:8000/admin/invite?token=${encodeURIComponent(invite.token)}`,
        );
        await page.getByTestId("copy-new-invite").click();
        await page.getByTestId("copy-new-invite").filter({ hasText: "Copied" }).waitFor();
        assert.equal(await readClipboard(page), link);
        const pending = page.getByTestId("pending-invites").getByRole("listitem");
        assert.equal(await pending.count(), 1);
        assert.match(await pending.innerText(), /admin\s+by olivia[\s\S]*\(in 7 days\)/);
        await assertGoodEverywhere(page);

        await pending.getByRole("button", { name: /^Revoke admin invite/ }).click();
        const revoke = page.getByRole("dialog", { name: "Revoke this invite?" });
        await revoke.getByRole("button", { name: "Revoke invite" }).click();
        await page.getByText("No pending invites.").waitFor();
        assert.deepEqual(await listInvites(kv, "alpha"), []);

        const roleOf = async (login: string) =>
          (await getGroup(kv, "alpha"))?.members.find((m) => m.login === login)?.role;
        const nina = { userId: "6", login: "nina", role: "viewer" as const };
        await putGroup(kv, { ...ALPHA, members: [...ALPHA.members, nina] });
        await page.getByLabel("Role of vera").selectOption("admin");
        const conflict = page.getByRole("alert").filter({ hasText: "Someone changed this group" });
        await conflict.waitFor();
        await page.getByTestId("member-nina").waitFor();
        assert.equal(await page.getByLabel("Role of vera").inputValue(), "viewer");
        assert.equal(await roleOf("vera"), "viewer", "a stale change is not saved");
        await assertGoodEverywhere(page);

        await page.getByLabel("Role of vera").selectOption("admin");
        await page.getByTestId("members-status").getByText("vera is now an admin.").waitFor();
        assert.equal(await roleOf("vera"), "admin");
        assert.equal(await roleOf("nina"), "viewer", "the other change is kept");

        await page.getByRole("button", { name: "Remove adam" }).click();
        const removal = page.getByRole("dialog", { name: "Remove adam?" });
        await removal.waitFor();
        await assertGoodEverywhere(page);
        await removal.getByRole("button", { name: "Remove member" }).click();
        await page.getByTestId("member-adam").waitFor({ state: "detached" });
        assert.equal(await roleOf("adam"), undefined);

        await page.getByLabel("Role of olivia").selectOption("viewer");
        const refusal = page.getByRole("alert").filter({ hasText: "needs at least one owner" });
        await refusal.waitFor();
        assert.match(await refusal.innerText(), /Make another member an owner first/);
        assert.equal(await page.getByLabel("Role of olivia").inputValue(), "owner");
        assert.equal(await roleOf("olivia"), "owner");
        await assertGoodEverywhere(page);

        await page.getByRole("button", { name: "Remove olivia" }).click();
        const self = page.getByRole("dialog", { name: "Remove olivia?" });
        assert.match(await self.innerText(), /You lose access to this group/);
        await self.getByRole("button", { name: "Remove member" }).click();
        await self.waitFor({ state: "hidden" });
        await refusal.waitFor();
        assert.deepEqual((await getGroup(kv, "alpha"))?.members.map((m) => m.login), [
          "olivia",
          "vera",
          "nina",
        ]);
        assert.deepEqual(await getGroup(kv, "beta"), BETA, "another group is never touched");
      },
    );
  },
});

Deno.test({
  name: "groups console: a viewer sees members and targets, and none of the owner's controls",
  ignore: !hasChromium,
  async fn() {
    await withConsole(
      { as: PEOPLE.viewer, seed: (kv) => putGroup(kv, ALPHA) },
      async ({ page, base }) => {
        await page.goto(`${base}/admin/groups/alpha`);
        await page.getByTestId("member-olivia").waitFor();
        const main = page.locator("main");
        assert.equal(await main.getByRole("combobox").count(), 0);
        for (const title of ["Invites", "Webhook", "Name and id"]) {
          assert.equal(await page.getByRole("heading", { name: title, exact: true }).count(), 0);
        }
        await page.getByRole("heading", { name: "Allowed chat targets" }).waitFor();
        assert.equal(await main.getByRole("button").count(), 0);
        await assertGoodEverywhere(page);
      },
    );
  },
});

Deno.test({
  name: "groups console: a super admin allows targets, renames, and deletes after typing the id",
  ignore: !hasChromium,
  async fn() {
    const seed = async (kv: Kv) => {
      await putGroup(kv, ALPHA);
      await putGroup(kv, BETA);
      await replaceRoutes(kv, [route("alpha", "r1"), route("beta", "b1")]);
      await regenerateGroupSecret(kv, "alpha");
    };
    await withConsole({ seed }, async ({ page, base, kv }) => {
      await page.goto(`${base}/admin/groups/alpha`);
      const refused = page.getByTestId("refused-targets");
      assert.match(await refused.innerText(), /Route r1: discord channel 123456789/);
      await page.getByLabel("Channel id").fill("123456789");
      await page.getByRole("button", { name: "Allow target" }).click();
      await page.getByTestId("targets-status").getByText("discord channel 123456789 allowed.")
        .waitFor();
      await refused.waitFor({ state: "detached" });
      assert.deepEqual(
        (await getAllowedTargets(kv, "alpha")).targets.map((entry) => entry.target),
        [{ platform: "discord", channelId: "123456789" }],
      );
      assert.match(
        await page.getByTestId("allowed-targets").innerText(),
        /allowed by a super admin, \d{4}-\d\d-\d\d \d\d:\d\d UTC by debug/,
      );
      await assertGoodEverywhere(page);

      await page.getByLabel("Name", { exact: true }).fill("Alpha team");
      await page.getByLabel("Id", { exact: true }).fill("alpha-team");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL(`${base}/admin/groups/alpha-team?notice=renamed`);
      await page.getByRole("heading", { level: 1, name: "Alpha team" }).waitFor();
      assert.equal(await getGroup(kv, "alpha"), null);
      assert.deepEqual((await getGroup(kv, "alpha-team"))?.members, ALPHA.members);
      assert.ok(await getGroupSecret(kv, "alpha-team"), "the secret follows the group");

      const open = page.getByRole("button", { name: "Delete group…" });
      await open.click();
      const dialog = page.getByRole("dialog", { name: "Delete group Alpha team?" });
      const confirm = dialog.getByRole("button", { name: "Delete group", exact: true });
      assert.ok(await confirm.isDisabled());
      await assertGoodEverywhere(page);
      await page.keyboard.type("alpha");
      assert.ok(await confirm.isDisabled(), "a prefix of the id does not confirm");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Delete group…");

      await open.click();
      assert.equal(await dialog.getByLabel(/Type alpha-team to confirm/).inputValue(), "");
      await page.keyboard.type("alpha-team");
      await page.keyboard.press("Enter");
      await page.waitForURL(`${base}/admin/groups?deleted=alpha-team`);
      await page.getByRole("status").filter({ hasText: "Group alpha-team was deleted." }).waitFor();
      assert.equal(await page.getByTestId("group-alpha-team").count(), 0);
      await page.getByTestId("group-beta").waitFor();
      assert.deepEqual(await listGroups(kv), [BETA]);
      assert.deepEqual((await getRoutes(kv)).routes.map((r) => r.id), ["b1"]);
      assert.equal(await getGroupSecret(kv, "alpha-team"), null);
      await assertGoodEverywhere(page);
    });
  },
});
