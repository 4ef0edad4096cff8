/**
 * `POST /discord/interactions` over HTTP: signature checks with a generated Ed25519 key, PING,
 * every `/gh` sub-command up to what the fake GitHub receives and the follow-up the fake
 * Discord receives, and linking through the sign-in callback.
 */
import assert from "node:assert/strict";
import { getAllowedTargets } from "../../lib/store/config/allowed_targets.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { getDiscordLink } from "../../lib/store/auth/links.ts";
import { saveMessageRef } from "../../lib/store/delivery/message_refs.ts";
import { completeLinkInBrowser } from "../_chat_link_helpers.ts";
import { startTestApp } from "../_helpers.ts";
import { ALPHA } from "../_admin_helpers.ts";
import { discordKeys, signatureHeaders } from "../discord_fake.ts";
import {
  APP_ID,
  CHANNEL,
  command,
  DISCORD_USER,
  followUpOf,
  GRACE,
  interaction,
  linkGrace,
  startDiscordApp,
} from "../discord_app.ts";

Deno.test("interactions: 503 { error } until the public key and application id are set", async () => {
  await using t = await startTestApp();
  const res = await t.fetch("/discord/interactions", { method: "POST", body: '{"type":1}' });
  assert.equal(res.status, 503);
  assert.deepEqual(await res.json(), { error: "Discord interactions is not configured" });
});

Deno.test("interactions: PING answers PONG; every bad signature is 401, never 5xx", async () => {
  await using app = await startDiscordApp();
  const ping = await app.post({ type: 1 });
  assert.equal(ping.status, 200);
  assert.deepEqual(await ping.json(), { type: 1 });

  const body = JSON.stringify({ type: 1 });
  const good = await signatureHeaders(app.keys, body);
  const other = await discordKeys();
  const stale = String(Math.floor(Date.now() / 1000) - 3600);
  const cases: [string, Record<string, string>, string][] = [
    ["no headers", { "content-type": "application/json" }, body],
    ["no timestamp", { "x-signature-ed25519": good["x-signature-ed25519"] }, body],
    ["no signature", { "x-signature-timestamp": good["x-signature-timestamp"] }, body],
    ["non-hex signature", { ...good, "x-signature-ed25519": "zz".repeat(64) }, body],
    ["short signature", { ...good, "x-signature-ed25519": "ab12" }, body],
    ["wrong key", await signatureHeaders(other, body), body],
    ["altered body", good, JSON.stringify({ type: 2 })],
    ["altered timestamp", {
      ...good,
      "x-signature-timestamp": String(Number(good["x-signature-timestamp"]) + 1),
    }, body],
    ["stale timestamp", await signatureHeaders(app.keys, body, stale), body],
    ["non-numeric timestamp", { ...good, "x-signature-timestamp": "soon" }, body],
  ];
  for (const [name, headers, sent] of cases) {
    const res = await app.post(sent, headers);
    assert.equal(res.status, 401, name);
    assert.deepEqual(await res.json(), { error: "Invalid request signature" }, name);
  }
});

Deno.test("interactions: signed but malformed or oversized bodies are 4xx { error }", async () => {
  await using app = await startDiscordApp();
  const notJson = await app.post("{not json");
  assert.equal(notJson.status, 400);
  assert.deepEqual(await notJson.json(), { error: "Invalid JSON" });
  const notInteraction = await app.post({ type: 2, id: "x" });
  assert.equal(notInteraction.status, 400);
  assert.deepEqual(await notInteraction.json(), { error: "Not a Discord interaction" });
  const hostileToken = await app.post({ ...command("whoami"), token: "../../evil" });
  assert.equal(hostileToken.status, 400);
  const huge = await app.post(JSON.stringify({ type: 1, pad: "x".repeat(70_000) }));
  assert.equal(huge.status, 413);
  assert.deepEqual(await huge.json(), { error: "Request too large" });
});

/**
 * A signed-ready interaction body whose `data[key]` holds `leaf` wrapped `depth - 1` times in
 * `open`/`close`, written as text so that no depth overflows the test's own stringify.
 */
function nestedBody(
  type: number,
  data: Record<string, unknown>,
  key: string,
  [open, close]: [string, string],
  leaf: Record<string, unknown>,
  depth: number,
): string {
  const nested = open.repeat(depth - 1) + JSON.stringify(leaf) + close.repeat(depth - 1);
  const outer = JSON.stringify(interaction(type, { ...data, [key]: ["NESTED"] }));
  return outer.replace('"NESTED"', nested);
}

/** Command options nested `depth` levels below the `/gh` command. */
function nestedOptions(depth: number): string {
  return nestedBody(
    2,
    { id: "1", name: "gh", type: 1 },
    "options",
    [
      '{"name":"g","type":2,"options":[',
      "]}",
    ],
    { name: "leaf", type: 3, value: "x" },
    depth,
  );
}

/** A modal submission whose text input sits `depth` levels deep (via `component` or `components`). */
function nestedSubmission(depth: number, via: "component" | "components"): string {
  const wrap: [string, string] = via === "component"
    ? ['{"type":18,"component":', "}"]
    : ['{"type":1,"components":[', "]}"];
  return nestedBody(5, { custom_id: "gh:cm:1#t" }, "components", wrap, {
    type: 4,
    custom_id: "body",
    value: "x",
  }, depth);
}

Deno.test("interactions: options or modal components nested past Discord's depth are 400, never a crash", async () => {
  await using app = await startDiscordApp();
  const cases: [string, string][] = [
    ["options 1,400 deep", nestedOptions(1_400)],
    ["options 5 deep", nestedOptions(5)],
    ["component 2,700 deep", nestedSubmission(2_700, "component")],
    ["components 2,000 deep", nestedSubmission(2_000, "components")],
    ["component 8 deep", nestedSubmission(8, "component")],
  ];
  for (const [name, sent] of cases) {
    assert.ok(sent.length < 64 * 1024, `${name}: under the body limit`);
    const res = await app.post(sent);
    assert.equal(res.status, 400, name);
    assert.deepEqual(await res.json(), { error: "Not a Discord interaction" }, name);
  }
  const shallow = await app.post(nestedOptions(3));
  assert.equal(shallow.status, 200, "a sub-command group's three levels are read");
  await shallow.body?.cancel();
  const after = await app.interact(command("whoami"));
  assert.equal(after.type, 4, "a normal interaction still works after");
});

Deno.test("/gh whoami, link (through the sign-in callback, confirmed in Discord) and unlink", async () => {
  await using app = await startDiscordApp();
  const before = await app.interact(command("whoami"));
  assert.deepEqual(before, {
    type: 4,
    data: {
      content: "Your Discord account is not linked to GitHub; run /gh link to link it.",
      flags: 64,
      allowed_mentions: { parse: [] },
    },
  });

  const linkCommand = command("link");
  const link = await app.interact(linkCommand) as { type: number; data: Record<string, unknown> };
  assert.equal(link.type, 4);
  assert.equal(link.data.flags, 64, "the sign-in link is only shown to the invoker");
  const url = new URL(String(link.data.content).match(/https?:\/\/\S+/)![0]);
  assert.equal(url.pathname, "/discord/link");
  assert.match(String(link.data.content), /never share it/);

  const confirmPage = await app.t.fetch(`${url.pathname}${url.search}`, {
    headers: { accept: "text/html" },
  });
  assert.equal(confirmPage.status, 200);
  assert.equal(confirmPage.headers.get("cache-control"), "no-store");
  const html = await confirmPage.text();
  assert.match(html, />@gracie</, "named by the unique username, not the display name");
  assert.doesNotMatch(html, /Grace/);
  const bogus = await app.t.fetch("/discord/link?token=not-a-token-at-all", {
    headers: { accept: "text/html" },
  });
  assert.equal(bogus.status, 404);
  await bogus.body?.cancel();

  const res = await completeLinkInBrowser(app.t, url.href, app.github.issueCode(GRACE));
  assert.equal(res.status, 200);
  assert.match(await res.text(), /Accounts linked/);
  assert.equal((await getDiscordLink(app.t.kv, DISCORD_USER))?.login, "grace");
  const used = await app.t.fetch(`${url.pathname}${url.search}`, {
    headers: { accept: "text/html" },
  });
  assert.equal(used.status, 404, "the page no longer offers a used link");
  await used.body?.cancel();
  const [confirmation] = app.hooks.callsFor(String(linkCommand.token));
  assert.equal(confirmation.method, "POST");
  assert.equal(confirmation.path, `/webhooks/${APP_ID}/${linkCommand.token}`);
  assert.equal(confirmation.body.flags, 64);
  assert.match(String(confirmation.body.content), /acts on GitHub as grace/);

  const whoami = await app.interact(command("whoami")) as { data: { content: string } };
  assert.equal(whoami.data.content, "Your Discord account is linked to the GitHub account grace.");

  const unlink = await app.interact(command("unlink")) as { data: { content: string } };
  assert.match(unlink.data.content, /Unlinked from the GitHub account grace/);
  assert.match(unlink.data.content, /Settings → Applications/);
  assert.equal(await getDiscordLink(app.t.kv, DISCORD_USER), null);
  const audited = (await listAuditEntries(app.t.kv))
    .filter((entry) => entry.action.startsWith("link."))
    .map(({ action, actor, detail }) => ({ action, login: actor.login, detail }));
  assert.deepEqual(audited, [
    {
      action: "link.delete",
      login: "grace",
      detail: { platform: "discord", chatUserId: DISCORD_USER, via: "chat" },
    },
    {
      action: "link.create",
      login: "grace",
      detail: { platform: "discord", chatUserId: DISCORD_USER, via: "github sign-in" },
    },
  ]);
});

Deno.test("/gh comment, merge, close, reopen and react act as the linked user, deferred", async () => {
  await using app = await startDiscordApp();
  await linkGrace(app);
  const cases: [Record<string, string>, string, RegExp, [string, string, unknown]][] = [
    [
      { ref: "octo/app#5", text: "Ship it" },
      "comment",
      /^Commented on octo\/app#5: https:\/\/github\.com\/octo\/app\/issues\/5#issuecomment-/,
      ["POST", "/repos/octo/app/issues/5/comments", { body: "Ship it" }],
    ],
    [
      { ref: "https://github.com/octo/app/pull/5", method: "rebase" },
      "merge",
      /^Merged octo\/app#5 \(rebase\)\.$/,
      ["PUT", "/repos/octo/app/pulls/5/merge", { merge_method: "rebase" }],
    ],
    [
      { ref: "octo/app#5" },
      "close",
      /^Closed octo\/app#5\.$/,
      ["PATCH", "/repos/octo/app/issues/5", { state: "closed" }],
    ],
    [
      { ref: "octo/app#5" },
      "reopen",
      /^Reopened octo\/app#5\.$/,
      ["PATCH", "/repos/octo/app/issues/5", { state: "open" }],
    ],
    [
      { ref: "octo/app#5", emoji: "🎉" },
      "react",
      /^Reacted 🎉 to octo\/app#5\.$/,
      ["POST", "/repos/octo/app/issues/5/reactions", { content: "hooray" }],
    ],
  ];
  for (const [options, name, reply, request] of cases) {
    const sent = command(name, options);
    const answer = await app.interact(sent);
    assert.deepEqual(answer, { type: 5, data: { flags: 64 } }, name);
    assert.match(await followUpOf(app, sent), reply, name);
    const last = app.github.requestsTo("/repos/").at(-1)!;
    assert.deepEqual([last.method, last.path, last.body], request, name);
  }
});

Deno.test("/gh actions: bad refs, unknown reactions, unlinked users and GitHub's refusals", async () => {
  await using app = await startDiscordApp();
  const content = async (body: Record<string, unknown>) =>
    ((await app.interact(body)) as { data: { content: string } }).data.content;
  assert.match(await content(command("close", { ref: "not a ref" })), /owner\/repo#123/);
  assert.equal(
    await content(command("close", { ref: "octo/app#5" })),
    "Not linked: run /gh link first to link your GitHub account.",
  );
  await linkGrace(app);
  assert.match(await content(command("react", { ref: "octo/app#5", emoji: "🍕" })), /\+1 👍/);
  assert.match(
    await content(command("merge", { ref: "octo/app#5", method: "yolo" })),
    /merge, squash or rebase/,
  );
  app.github.refusals.set("PUT /repos/octo/app/pulls/5/merge", {
    status: 403,
    message: "Must have admin rights to Repository.",
  });
  const merge = command("merge", { ref: "octo/app#5" });
  assert.deepEqual(await app.interact(merge), { type: 5, data: { flags: 64 } });
  assert.equal(
    await followUpOf(app, merge),
    "GitHub says you may not merge into this repository (403): Must have admin rights to Repository.",
  );
  assert.equal(app.hooks.calls.length, 1, "nothing else was sent to Discord");
});

Deno.test("/gh subscribe and unsubscribe: Manage Channels, a linked owner or admin, threads claim their channel", async () => {
  await using app = await startDiscordApp();
  await putGroup(app.t.kv, {
    ...ALPHA,
    members: [...ALPHA.members, { userId: String(GRACE.id), login: "grace", role: "admin" }],
  });
  const content = async (body: Record<string, unknown>) =>
    ((await app.interact(body)) as { data: { content: string; flags: number } }).data.content;
  const manager = (permissions: string, extra: Record<string, unknown> = {}) => ({
    member: {
      user: { id: DISCORD_USER, username: "gracie" },
      roles: [],
      permissions,
    },
    ...extra,
  });
  assert.equal(
    await content(command("subscribe", { group: "alpha" })),
    "Only members with Manage Channels may subscribe this channel.",
  );
  assert.equal(
    await content(command("subscribe", { group: "alpha" }, manager("16"))),
    "Not linked: run /gh link first to link your GitHub account.",
  );
  await linkGrace(app);
  const thread = { channel: { id: CHANNEL, type: 11, parent_id: "300000000000000099" } };
  assert.match(
    await content(command("subscribe", { group: "alpha" }, manager("16", thread))),
    /^Group alpha may now post into this channel/,
  );
  assert.deepEqual(
    (await getAllowedTargets(app.t.kv, "alpha")).targets.map((entry) => entry.target),
    [{ platform: "discord", channelId: "300000000000000099" }],
  );
  assert.match(
    await content(command("subscribe", { group: "beta" }, manager("8"))),
    /There is no group beta/,
  );
  assert.match(
    await content(command("unsubscribe", { group: "alpha" }, manager("16", thread))),
    /^Group alpha no longer posts into this channel/,
  );
  assert.equal((await getAllowedTargets(app.t.kv, "alpha")).targets.length, 0);
  assert.match(
    await content(
      command("subscribe", { group: "alpha" }, { ...manager("16"), guild_id: undefined }),
    ),
    /from a server channel/,
  );
});

Deno.test("/gh autocomplete suggests refs of the channel's recent notifications", async () => {
  await using app = await startDiscordApp();
  const subject = { repository: "octo/app", routeId: "prs", groupId: "alpha" };
  await saveMessageRef(app.t.kv, { platform: "discord", chatId: CHANNEL, messageId: "11" }, {
    ...subject,
    kind: "pull",
    number: 5,
  });
  await saveMessageRef(app.t.kv, { platform: "discord", chatId: CHANNEL, messageId: "12" }, {
    ...subject,
    kind: "issue",
    number: 9,
  });
  await saveMessageRef(app.t.kv, { platform: "discord", chatId: "999", messageId: "13" }, {
    ...subject,
    kind: "issue",
    number: 77,
  });
  const typed = (value: string) =>
    interaction(4, {
      id: "1",
      name: "gh",
      type: 1,
      options: [{
        name: "close",
        type: 1,
        options: [{ name: "ref", type: 3, value, focused: true }],
      }],
    });
  assert.deepEqual(await app.interact(typed("")), {
    type: 8,
    data: {
      choices: [
        { name: "octo/app#9 (issue)", value: "octo/app#9" },
        { name: "octo/app#5 (pull request)", value: "octo/app#5" },
      ],
    },
  });
  assert.deepEqual(await app.interact(typed("#5")), {
    type: 8,
    data: { choices: [{ name: "octo/app#5 (pull request)", value: "octo/app#5" }] },
  });
});
