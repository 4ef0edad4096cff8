/**
 * Buttons on notifications, end to end: a pull request notification is delivered with its
 * buttons and remembered; presses are gated by the route's roles and the presser's link, run
 * as the presser on the fake GitHub, and answered with deferred follow-ups the fake Discord
 * receives. Merge confirms its method first; Comment opens a form.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import { subjectTag } from "../../lib/format/subject.ts";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import { getMessageRef, saveMessageRef } from "../../lib/store/delivery/message_refs.ts";
import type { Route } from "../../lib/types.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";
import { fixture, githubRequest, SECRETS } from "../_ingest_helpers.ts";
import {
  CHANNEL,
  DISCORD_USER,
  followUpOf,
  interaction,
  linkGrace,
  startDiscordApp,
} from "../discord_app.ts";

const ROLE = "600000000000000006";
const NOTIFICATION = "700000000000000007";
/** The tag of octo/app#5, the remembered notification's item. */
const TAG = subjectTag("octo/app", 5);

/** Binds group `acme` to the GitHub account `owner` through its `owners`. */
async function bindAcme(kv: Kv, owner: string): Promise<void> {
  const group = await getGroup(kv, "acme");
  await putGroup(kv, { ...group!, owners: [owner] });
}

function prsRoute(roles: string[] = [ROLE]): Route {
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

/** A press of `customId` on message `messageId` by a member holding `roles`. */
function press(
  customId: string,
  options: { messageId?: string; roles?: string[]; values?: string[] } = {},
): Record<string, unknown> {
  const { messageId = NOTIFICATION, roles = [ROLE], values } = options;
  return interaction(3, {
    custom_id: customId,
    component_type: values ? 3 : 2,
    ...(values ? { values } : {}),
  }, {
    message: { id: messageId },
    member: { user: { id: "400000000000000004", username: "gracie" }, roles, permissions: "0" },
  });
}

async function rememberNotification(kv: Kv, messageId = NOTIFICATION): Promise<void> {
  await bindAcme(kv, "octo");
  await saveMessageRef(kv, { platform: "discord", chatId: CHANNEL, messageId }, {
    repository: "octo/app",
    kind: "pull",
    number: 5,
    routeId: "prs",
    groupId: "acme",
  });
}

Deno.test("a delivered pull request carries buttons, is remembered, and Close works from it", async () => {
  await using discord = startFakeDiscord();
  await using app = await startDiscordApp({
    GITHUB_WEBHOOK_SECRET: SECRETS.github[0],
    DISCORD_BOT_TOKEN: "test-bot-token",
  }, discord.url);
  await storeRoutes(app.t.kv, [prsRoute()]);
  await bindAcme(app.t.kv, "Codertocat");
  await using _worker = runWorker(app.t.kv, app.t.config);
  const body = await fixture("pull_request/opened.payload.json");
  const accepted = await app.t.app.fetch(await githubRequest(body, { delivery: "buttons-1" }));
  assert.equal(accepted.status, 200);
  const [log] = await settled(app.t.kv, "buttons-1");
  assert.equal(log.status, "ok");

  const posted = discord.received[0];
  const rows = posted.body.components as { components: Record<string, unknown>[] }[];
  assert.deepEqual(
    rows[0].components.map((c) => c.label),
    ["Merge", "Close", "Comment", "Open on GitHub"],
  );
  assert.equal(rows[0].components[3].url, "https://github.com/Codertocat/Hello-World/pull/2");
  const tag = subjectTag("Codertocat/Hello-World", 2);
  assert.deepEqual(rows[0].components.map((c) => c.custom_id), [
    `gh:merge#${tag}`,
    `gh:close#${tag}`,
    `gh:comment#${tag}`,
    undefined,
  ]);
  const menu = rows[1].components[0] as { custom_id: string; options: { value: string }[] };
  assert.equal(menu.custom_id, `gh:react#${tag}`);
  assert.deepEqual(menu.options.map((o) => o.value), [
    "+1",
    "-1",
    "laugh",
    "confused",
    "heart",
    "hooray",
    "rocket",
    "eyes",
  ]);

  const place = { platform: "discord" as const, chatId: CHANNEL, messageId: posted.messageId };
  assert.deepEqual((await getMessageRef(app.t.kv, place))?.subject, {
    repository: "Codertocat/Hello-World",
    kind: "pull",
    number: 2,
    routeId: "prs",
    groupId: "acme",
    groupInternalId: (await readGroupEntry(app.t.kv, "acme")).entry?.internalId,
  });

  await linkGrace(app);
  const refusedPress = press(`gh:close#${tag}`, { messageId: posted.messageId, roles: [] });
  assert.deepEqual(await app.interact(refusedPress), {
    type: 4,
    data: {
      content: "Only members with one of this notification's roles may use its buttons.",
      flags: 64,
      allowed_mentions: { parse: [] },
    },
  });
  const close = press(`gh:close#${tag}`, { messageId: posted.messageId });
  assert.deepEqual(await app.interact(close), { type: 5, data: { flags: 64 } });
  assert.equal(await followUpOf(app, close), "Closed Codertocat/Hello-World#2.");
  const [call] = app.github.requestsTo("/repos/");
  assert.deepEqual([call.method, call.path, call.body], [
    "PATCH",
    "/repos/Codertocat/Hello-World/issues/2",
    { state: "closed" },
  ]);
  assert.equal(app.github.requestsTo("/repos/").length, 1, "the refused press reached nobody");
});

Deno.test("Merge asks for the method and a confirmation, then merges as the presser", async () => {
  await using app = await startDiscordApp();
  await storeRoutes(app.t.kv, [prsRoute()]);
  await rememberNotification(app.t.kv);
  await linkGrace(app);

  const ask = await app.interact(press(`gh:merge#${TAG}`)) as {
    type: number;
    data: {
      content: string;
      flags: number;
      components: { components: Record<string, unknown>[] }[];
    };
  };
  assert.equal(ask.type, 4);
  assert.equal(ask.data.flags, 64);
  assert.match(ask.data.content, /^Merge octo\/app#5 as your GitHub account\?/);
  const select = ask.data.components[0].components[0];
  assert.equal(select.custom_id, `gh:mm:${NOTIFICATION}#${TAG}`);
  assert.equal(
    ask.data.components[1].components[0].custom_id,
    `gh:md:merge:${NOTIFICATION}#${TAG}`,
  );
  assert.equal(app.github.requestsTo("/repos/").length, 0, "nothing merged before confirming");

  const chosen = await app.interact(
    press(`gh:mm:${NOTIFICATION}#${TAG}`, { messageId: "800000000000000008", values: ["squash"] }),
  ) as { type: number; data: { components: { components: Record<string, unknown>[] }[] } };
  assert.equal(chosen.type, 7);
  assert.equal(
    chosen.data.components[1].components[0].custom_id,
    `gh:md:squash:${NOTIFICATION}#${TAG}`,
  );

  const confirm = press(`gh:md:squash:${NOTIFICATION}#${TAG}`, { messageId: "800000000000000008" });
  assert.deepEqual(await app.interact(confirm), { type: 6 });
  assert.equal(await followUpOf(app, confirm), "Merged octo/app#5 (squash).");
  const [merge] = app.github.requestsTo("/repos/");
  assert.deepEqual([merge.method, merge.path, merge.body], [
    "PUT",
    "/repos/octo/app/pulls/5/merge",
    { merge_method: "squash" },
  ]);

  const cancel = await app.interact(press("gh:cancel", { messageId: "800000000000000008" }));
  assert.deepEqual(cancel, {
    type: 7,
    data: { content: "Nothing was merged.", components: [], allowed_mentions: { parse: [] } },
  });
});

Deno.test("Comment opens a form whose submission comments as the presser", async () => {
  await using app = await startDiscordApp();
  await storeRoutes(app.t.kv, [prsRoute()]);
  await rememberNotification(app.t.kv);
  await linkGrace(app);
  const form = await app.interact(press(`gh:comment#${TAG}`)) as {
    type: number;
    data: { custom_id: string; title: string; components: Record<string, unknown>[] };
  };
  assert.equal(form.type, 9);
  assert.equal(form.data.custom_id, `gh:cm:${NOTIFICATION}#${TAG}`);
  assert.equal(form.data.title, "Comment on octo/app#5");
  assert.ok(form.data.custom_id.length <= 100);

  const submit = interaction(5, {
    custom_id: `gh:cm:${NOTIFICATION}#${TAG}`,
    components: [{ type: 18, component: { type: 4, custom_id: "body", value: "Nice work" } }],
  }, {
    message: { id: NOTIFICATION },
    member: { user: { id: DISCORD_USER }, roles: [ROLE], permissions: "0" },
  });
  assert.deepEqual(await app.interact(submit), { type: 5, data: { flags: 64 } });
  assert.match(await followUpOf(app, submit), /^Commented on octo\/app#5: https:\/\//);
  const [comment] = app.github.requestsTo("/repos/");
  assert.deepEqual([comment.path, comment.body], [
    "/repos/octo/app/issues/5/comments",
    { body: "Nice work" },
  ]);
});

Deno.test("React menu, routes without roles, unknown notifications and unlinked pressers", async () => {
  await using app = await startDiscordApp();
  await storeRoutes(app.t.kv, [prsRoute([])]);
  await rememberNotification(app.t.kv);
  const content = async (body: Record<string, unknown>) =>
    ((await app.interact(body)) as { data: { content: string } }).data.content;

  assert.equal(
    await content(press(`gh:close#${TAG}`, { roles: [] })),
    "Not linked: run /gh link first to link your GitHub account.",
  );
  await linkGrace(app);
  const react = press(`gh:react#${TAG}`, { roles: [], values: ["rocket"] });
  assert.deepEqual(await app.interact(react), { type: 5, data: { flags: 64 } });
  assert.equal(await followUpOf(app, react), "Reacted 🚀 to octo/app#5.");
  const [reaction] = app.github.requestsTo("/repos/");
  assert.deepEqual(reaction.body, { content: "rocket" });

  assert.match(
    await content(press(`gh:close#${TAG}`, { messageId: "900000000000000009" })),
    /no longer knows what this notification is about/,
  );
  assert.match(await content(press("gh:nope")), /not one Switchyard knows/);
  assert.match(
    await content(press(`gh:react#${TAG}`, { values: ["pizza"] })),
    /Pick one of GitHub's reactions/,
  );
  app.github.refusals.set("PATCH /repos/octo/app/issues/5", {
    status: 403,
    message: "Resource not accessible by integration",
  });
  const close = press(`gh:close#${TAG}`, { roles: [] });
  await app.interact(close);
  assert.equal(
    await followUpOf(app, close),
    "GitHub says you may not close octo/app#5 (403): Resource not accessible by integration.",
  );
});
