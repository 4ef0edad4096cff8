/**
 * The account page in chromium, as a person would use it: reach it from their name in the
 * header, turn "not my own" on, and unlink a chat account after confirming. Every state passes
 * axe-core in light and dark mode and at 390 px.
 */
import assert from "node:assert/strict";
import { putGroup } from "../../lib/store/config/groups.ts";
import { getDiscordLink, saveDiscordLink } from "../../lib/store/auth/links.ts";
import { createSession } from "../../lib/store/auth/sessions.ts";
import { getUserPreferences } from "../../lib/store/auth/user_preferences.ts";
import { ALPHA, PEOPLE } from "../_admin_helpers.ts";
import { assertGoodEverywhere, hasChromium, startConsoleApp, withChromium } from "../_browser.ts";

const DISCORD_USER = "400000000000000001";

Deno.test({
  name: "account page: from the header, save 'not my own' and unlink a Discord account",
  ignore: !hasChromium,
  async fn() {
    await using app = await startConsoleApp({});
    await putGroup(app.kv, ALPHA);
    const person = PEOPLE.owner;
    await saveDiscordLink(app.kv, { discordUserId: DISCORD_USER, ...person, linkedAt: Date.now() });
    await withChromium(app.app.fetch, async (page, base) => {
      const { sessionId } = await createSession(app.kv, person);
      await page.context().addCookies([{
        name: "switchyard_session",
        value: sessionId,
        url: base,
      }]);
      await page.goto(`${base}/admin`);
      await page.getByRole("link", { name: person.login, exact: true }).click();
      await page.waitForURL(`${base}/admin/account`);
      assert.equal(await page.locator("h1").textContent(), "Your account");
      assert.match(
        await page.locator("main").innerText(),
        new RegExp(`Discord user ${DISCORD_USER}`),
      );
      await assertGoodEverywhere(page);

      await page.getByRole("checkbox", { name: /Not my own/ }).check();
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("status").getByText("Settings saved.").waitFor();
      assert.equal(await page.getByRole("checkbox", { name: /Not my own/ }).isChecked(), true);
      assert.equal((await getUserPreferences(app.kv, person.userId)).skipOwnActions, true);

      await page.getByRole("button", { name: "Unlink" }).click();
      const dialog = page.getByRole("dialog", { name: `Unlink Discord user ${DISCORD_USER}?` });
      await dialog.waitFor();
      await assertGoodEverywhere(page);
      await dialog.getByRole("button", { name: "Unlink" }).click();
      await page.getByRole("status").getByText("Chat account unlinked.").waitFor();
      assert.equal(await getDiscordLink(app.kv, DISCORD_USER), null);
      assert.match(await page.locator("main").innerText(), /No Discord account is linked/);
      await assertGoodEverywhere(page);
    });
  },
});
