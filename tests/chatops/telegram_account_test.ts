/** Telegram linking: `/gh login` (private link only), the OAuth callback, whoami and logout. */
import assert from "node:assert/strict";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { getTelegramLink } from "../../lib/store/auth/links.ts";
import { startTestApp } from "../_helpers.ts";
import { completeLinkInBrowser } from "../_chat_link_helpers.ts";
import {
  ALICE,
  GROUP,
  messageUpdate,
  postUpdate,
  SECRET,
  sendUpdate,
  startTelegramWorld,
  type TelegramWorld,
  textMessage,
  textsTo,
} from "../_telegram_helpers.ts";

const ALICE_GITHUB = { id: 9001, login: "alice-gh" };

function signInLinkIn(text: string): URL {
  const found = text.match(/https?:\/\/\S+/);
  if (!found) throw new Error(`no link in ${text}`);
  return new URL(found[0]);
}

function assertNoLinkIn(texts: string[]): void {
  for (const text of texts) assert.doesNotMatch(text, /oauth|state=/, text);
}

/** Completes, in a browser, the link in Alice's private chat (page, GitHub, confirmation). */
async function completeLink(world: TelegramWorld): Promise<Response> {
  const [text] = textsTo(world.bot, ALICE);
  const code = world.github.issueCode(ALICE_GITHUB);
  return await completeLinkInBrowser(world.t, signInLinkIn(text).href, code);
}

Deno.test("/gh login in a group: the link goes privately, the group only hears where", async () => {
  await using world = await startTelegramWorld();
  await sendUpdate(world.t, messageUpdate(textMessage("/gh login")));
  const [privateText] = textsTo(world.bot, ALICE);
  const link = signInLinkIn(privateText);
  assert.equal(link.origin, "https://relay.example");
  assert.equal(link.pathname, "/telegram/link");
  assert.ok(link.searchParams.get("token"));
  const groupTexts = textsTo(world.bot, GROUP);
  assert.deepEqual(groupTexts, ["I sent you a private message with your sign-in link."]);
  assertNoLinkIn(groupTexts);
});

Deno.test("/gh login when the bot may not message the user: how to start, never the link", async () => {
  await using world = await startTelegramWorld();
  world.bot.notStarted.add(ALICE);
  await sendUpdate(world.t, messageUpdate(textMessage("/gh@switchyard_bot login")));
  const groupTexts = textsTo(world.bot, GROUP);
  assert.equal(groupTexts.length, 1);
  assert.match(groupTexts[0], /https:\/\/t\.me\/switchyard_bot\?start=login/);
  assertNoLinkIn(groupTexts);
});

Deno.test("/start login in the private chat sends the link there", async () => {
  await using world = await startTelegramWorld();
  await sendUpdate(world.t, messageUpdate(textMessage("/start login", { chatId: ALICE })));
  const texts = textsTo(world.bot, ALICE);
  assert.equal(texts.length, 1);
  assert.equal(signInLinkIn(texts[0]).pathname, "/telegram/link");
});

Deno.test("completing the sign-in links the account and confirms in the private chat", async () => {
  await using world = await startTelegramWorld();
  await sendUpdate(world.t, messageUpdate(textMessage("/gh login")));
  const res = await completeLink(world);
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const link = await getTelegramLink(world.t.kv, String(ALICE));
  assert.equal(link?.login, ALICE_GITHUB.login);
  assert.equal(link?.userId, String(ALICE_GITHUB.id));
  const texts = textsTo(world.bot, ALICE);
  assert.equal(texts.at(-1), "Your Telegram account is now linked to the GitHub account alice-gh.");
  assert.equal(textsTo(world.bot, GROUP).length, 1);

  await sendUpdate(world.t, messageUpdate(textMessage("/gh whoami")));
  assert.equal(
    textsTo(world.bot, GROUP).at(-1),
    "You are linked to the GitHub account alice-gh.",
  );
});

Deno.test("/gh whoami unlinked says how to link", async () => {
  await using world = await startTelegramWorld();
  await sendUpdate(world.t, messageUpdate(textMessage("/gh whoami")));
  assert.deepEqual(textsTo(world.bot, GROUP), [
    "You are not linked to a GitHub account. Send /gh login to link one.",
  ]);
});

Deno.test("/gh login without GitHub sign-in configured says so", async () => {
  await using bot = (await import("../telegram_fake_bot.ts")).startFakeBot();
  await using t = await startTestApp({
    TELEGRAM_BOT_TOKEN: "123456:test-token",
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_URL: bot.url,
  });
  await postUpdate(t, messageUpdate(textMessage("/gh login")));
  assert.deepEqual(textsTo(bot, GROUP), [
    "Linking is not available: GitHub sign-in is not set up.",
  ]);
  assert.deepEqual(textsTo(bot, ALICE), []);
});

Deno.test("/gh logout forgets the link and says how to revoke on GitHub", async () => {
  await using world = await startTelegramWorld();
  await sendUpdate(world.t, messageUpdate(textMessage("/gh logout")));
  assert.equal(textsTo(world.bot, GROUP).at(-1), "You were not linked to a GitHub account.");
  await sendUpdate(world.t, messageUpdate(textMessage("/gh login")));
  await (await completeLink(world)).body?.cancel();
  assert.ok(await getTelegramLink(world.t.kv, String(ALICE)));
  await sendUpdate(world.t, messageUpdate(textMessage("/gh logout")));
  assert.match(textsTo(world.bot, GROUP).at(-1)!, /^Unlinked: .*Settings → Applications/);
  assert.equal(await getTelegramLink(world.t.kv, String(ALICE)), null);
  const audited = (await listAuditEntries(world.t.kv))
    .filter((entry) => entry.action.startsWith("link."))
    .map(({ action, detail }) => [action, detail?.via, detail?.chatUserId]);
  assert.deepEqual(audited, [
    ["link.delete", "chat", String(ALICE)],
    ["link.create", "github sign-in", String(ALICE)],
  ]);
});

Deno.test("the link's page names the Telegram user by username and continues with a form", async () => {
  await using world = await startTelegramWorld();
  await sendUpdate(world.t, messageUpdate(textMessage("/gh login")));
  const link = signInLinkIn(textsTo(world.bot, ALICE)[0]);
  const res = await world.t.fetch(`${link.pathname}${link.search}`, {
    headers: { accept: "text/html" },
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const html = await res.text();
  assert.match(html, />@alice</);
  assert.match(html, /<form method="post" action="\/telegram\/link">/);
  assert.doesNotMatch(html, /login\/oauth\/authorize/, "no way to GitHub without the POST");

  const again = await world.t.fetch(`${link.pathname}${link.search}`, {
    headers: { accept: "text/html" },
  });
  assert.equal(again.status, 200, "looking does not use the link up");
  await again.body?.cancel();
  for (const query of ["", "?token=nope", "?token=" + "a".repeat(40) + "." + "b".repeat(43)]) {
    const unusable = await world.t.fetch(`/telegram/link${query}`, {
      headers: { accept: "text/html" },
    });
    assert.equal(unusable.status, 404, query);
    assert.match(await unusable.text(), /Link not valid/);
  }
});

Deno.test("a user without a valid username is named by the numeric id, never the chosen name", async () => {
  await using world = await startTelegramWorld();
  const message = textMessage("/gh login", { chatId: ALICE });
  const from = message.from as { first_name: string; username?: string };
  from.first_name = '<script>alert(1)</script>"';
  from.username = "<b>x</b>";
  await sendUpdate(world.t, messageUpdate(message));
  const link = signInLinkIn(textsTo(world.bot, ALICE)[0]);
  const res = await world.t.fetch(`${link.pathname}${link.search}`, {
    headers: { accept: "text/html" },
  });
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.ok(!html.includes("<script>alert"));
  assert.ok(!html.includes("&lt;script>alert"), "the first name is not shown at all");
  assert.match(html, new RegExp(`I am ${ALICE}: continue to GitHub`));
});
