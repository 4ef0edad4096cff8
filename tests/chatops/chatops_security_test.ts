/**
 * Chat-ops authorization over HTTP: a signed Discord interaction is handled once (a replay
 * within the signature window is refused); a route's Discord roles gate the `/gh` commands run
 * in its channel as they gate its buttons; and buttons and commands act only on repositories
 * the sending group is bound to, on the same item the card links to.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { subjectTag } from "../../lib/format/subject.ts";
import { utf8 } from "../../lib/encoding.ts";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import { interactionIdKey } from "../../lib/store/auth/interaction_ids.ts";
import type { Group, Route } from "../../lib/types.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";
import { fixture, githubRequest, SECRETS } from "../_ingest_helpers.ts";
import {
  buttonUpdate,
  GROUP,
  linkUser,
  messageUpdate,
  notification,
  sendUpdate,
  startTelegramWorld,
  tagged,
  textMessage,
  textsTo,
} from "../_telegram_helpers.ts";
import {
  CHANNEL,
  command,
  DISCORD_USER,
  type DiscordApp,
  followUpOf,
  interaction,
  linkGrace,
  startDiscordApp,
} from "../discord_app.ts";

Deno.test("a replayed Discord interaction is refused with 401 and handled once", async () => {
  await using app = await startDiscordApp();
  await linkGrace(app);
  const sent = command("whoami");
  const body = JSON.stringify(sent);
  const first = await app.post(body);
  assert.equal(first.status, 200);
  const replay = await app.post(body);
  assert.equal(replay.status, 401);
  assert.deepEqual(await replay.json(), { error: "Interaction already handled" });
  assert.notEqual((await app.t.kv.get(interactionIdKey(String(sent.id)))).value, null);

  const close = command("close", { ref: "octo/app#5" });
  const closeBody = JSON.stringify(close);
  assert.equal((await app.post(closeBody)).status, 200);
  assert.equal((await app.post(closeBody)).status, 401);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(app.github.requestsTo("/repos/").length, 1, "the replay reached GitHub");
});

const ROLE = "600000000000000006";

function acmeRoute(roles: string[]): Route {
  return {
    id: "prs",
    name: "Pull requests",
    enabled: true,
    groupId: "acme",
    filters: [{ type: "event", value: "pull_request" }],
    ...(roles.length > 0 ? { discordRoleIds: roles } : {}),
    targets: [{ platform: "discord", channelId: CHANNEL }],
  };
}

/** Sets group `acme`'s `owners` (and installation), as a super admin would. */
async function bindAcme(kv: Kv, binding: Partial<Group>): Promise<void> {
  const group = await getGroup(kv, "acme");
  await putGroup(kv, { ...group!, ...binding });
}

/** A press of `customId` on the (recent) message `messageId` by a member holding `roles`. */
function press(customId: string, messageId: string, roles: string[] = []) {
  return interaction(3, { custom_id: customId, component_type: 2 }, {
    message: { id: messageId, timestamp: new Date().toISOString() },
    member: { user: { id: DISCORD_USER, username: "gracie" }, roles, permissions: "0" },
  });
}

async function contentOf(app: DiscordApp, body: Record<string, unknown>): Promise<string> {
  return ((await app.interact(body)) as { data: { content: string } }).data.content;
}

interface PullRequestPayload {
  pull_request: { html_url: string };
  installation?: { id: number };
}

/** Delivers the pull request fixture (changed by `edit`) through the global ingress. */
async function deliver(
  app: DiscordApp,
  delivery: string,
  edit: (payload: PullRequestPayload) => void = () => {},
) {
  const payload = JSON.parse(
    new TextDecoder().decode(await fixture("pull_request/opened.payload.json")),
  );
  edit(payload);
  const res = await app.t.app.fetch(
    await githubRequest(utf8(JSON.stringify(payload)), { delivery }),
  );
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const [log] = await settled(app.t.kv, delivery);
  assert.equal(log.status, "ok");
  return log;
}

Deno.test("/gh commands in a channel pass the roles of the routes posting into it, as its buttons do", async () => {
  await using app = await startDiscordApp();
  await storeRoutes(app.t.kv, [acmeRoute([ROLE])]);
  await bindAcme(app.t.kv, { owners: ["octo"] });
  await linkGrace(app);
  const refused = command("close", { ref: "octo/app#5" });
  assert.equal(
    await contentOf(app, refused),
    "Only members holding the roles of the routes posting into this channel may act from it.",
  );
  const inThread = command("merge", { ref: "octo/app#5" }, {
    channel_id: "300000000000000077",
    channel: { id: "300000000000000077", type: 11, parent_id: CHANNEL },
  });
  assert.match(await contentOf(app, inThread), /^Only members holding the roles/);
  assert.equal(app.github.requestsTo("/repos/").length, 0, "a refused command reached GitHub");

  const allowed = command("close", { ref: "octo/app#5" }, {
    member: { user: { id: DISCORD_USER, username: "gracie" }, roles: [ROLE], permissions: "0" },
  });
  assert.deepEqual(await app.interact(allowed), { type: 5, data: { flags: 64 } });
  assert.equal(await followUpOf(app, allowed), "Closed octo/app#5.");
});

Deno.test("Discord: a card for a repository the group is not bound to acts on nothing", async () => {
  await using discord = startFakeDiscord();
  await using app = await startDiscordApp({
    GITHUB_WEBHOOK_SECRET: SECRETS.github[0],
    DISCORD_BOT_TOKEN: "test-bot-token",
  }, discord.url);
  await storeRoutes(app.t.kv, [acmeRoute([])]);
  await bindAcme(app.t.kv, { installationId: 77 });
  await linkGrace(app);
  await using _worker = runWorker(app.t.kv, app.t.config);
  const tag = subjectTag("Codertocat/Hello-World", 2);

  const unbound = await deliver(app, "unbound-1", (payload) => {
    delete payload.installation;
  });
  assert.equal(
    await contentOf(app, press(`gh:close#${tag}`, unbound.messageId!)),
    "Switchyard does not act on this notification: its repository is not one the group that " +
      "sent it is bound to (the group's GitHub App installation or owners).",
  );
  assert.match(
    await contentOf(app, command("close", { ref: "Codertocat/Hello-World#2" })),
    /^Codertocat\/Hello-World#2 is not in a repository of the groups posting here/,
  );

  const elsewhere = await deliver(app, "mismatch-1", (payload) => {
    payload.pull_request.html_url = "https://github.com/octo/harmless/pull/1";
    payload.installation = { id: 77 };
  });
  const mismatched = discord.received.find((call) => call.messageId === elsewhere.messageId)!;
  assert.equal(mismatched.body.components, undefined, "a card linking elsewhere has no buttons");
  assert.equal(
    await contentOf(app, press(`gh:close#${tag}`, elsewhere.messageId!)),
    "Switchyard does not act on this notification: its repository is not one the group that " +
      "sent it is bound to (the group's GitHub App installation or owners).",
  );
  assert.equal(app.github.requestsTo("/repos/").length, 0, "GitHub received a call");

  const installed = await deliver(app, "installed-1", (payload) => {
    payload.installation = { id: 77 };
  });
  assert.match(
    await contentOf(app, press(`gh:close#${subjectTag("octo/app", 5)}`, installed.messageId!)),
    /^This button does not name Codertocat\/Hello-World#2/,
  );
  const close = press(`gh:close#${tag}`, installed.messageId!);
  assert.deepEqual(await app.interact(close), { type: 5, data: { flags: 64 } });
  assert.equal(await followUpOf(app, close), "Closed Codertocat/Hello-World#2.");
  const named = command("reopen", { ref: "Codertocat/Hello-World#2" });
  assert.deepEqual(await app.interact(named), { type: 5, data: { flags: 64 } });
  assert.equal(await followUpOf(app, named), "Reopened Codertocat/Hello-World#2.");
});

Deno.test("Telegram: buttons and commands act only on repositories the group is bound to, on the tagged item", async () => {
  await using world = await startTelegramWorld();
  await linkUser(world);
  await storeRoutes(world.t.kv, [{
    id: "prs",
    name: "Pull requests",
    enabled: true,
    groupId: "team",
    filters: [{ type: "event", value: "pull_request" }],
    targets: [{ platform: "telegram", chatId: String(GROUP) }],
  }]);
  await putGroup(world.t.kv, { id: "team", name: "team", members: [], owners: ["octo"] });
  const answerTo = async (data: string, messageId: number, date = Date.now() / 1000) => {
    const update = buttonUpdate(data, { messageId });
    (update.callback_query!.message as { date: number }).date = Math.floor(date);
    await sendUpdate(world.t, update);
    return String(world.bot.callsOf("answerCallbackQuery").at(-1)!.text);
  };

  assert.match(
    await answerTo(tagged("gh:close"), 31_337),
    /^I do not act on that notification: its repository is not one the group that sent it/,
  );
  const id = await notification(world.t);
  assert.equal(
    await answerTo(tagged("gh:close", "octo/other", 12), id),
    "This button does not name octo/site#12; nothing was done.",
  );
  await putGroup(world.t.kv, { id: "team", name: "team", members: [], owners: ["someone"] });
  assert.match(
    await answerTo(tagged("gh:close"), id),
    /^Group team is no longer bound to octo\/site/,
  );
  await sendUpdate(world.t, messageUpdate(textMessage("/gh close octo/site#12")));
  assert.match(
    textsTo(world.bot, GROUP).at(-1)!,
    /^octo\/site#12 is not in a repository of the groups posting here/,
  );
  assert.deepEqual(world.github.requestsTo("/repos/"), [], "GitHub received a call");

  await putGroup(world.t.kv, { id: "team", name: "team", members: [], owners: ["OCTO"] });
  assert.equal(await answerTo(tagged("gh:close"), id), "Closed octo/site#12.");
  await sendUpdate(world.t, messageUpdate(textMessage("/gh reopen octo/site#12")));
  assert.equal(textsTo(world.bot, GROUP).at(-1), "Reopened octo/site#12.");
});
