/**
 * Filters from chat: `/gh mute`, `/gh unmute` and `/gh filters` through the Discord
 * interactions endpoint and the Telegram webhook, changing the filter trees of the routes that
 * post into the chat, audited, and matching events as the tree says.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { muteMatcher } from "../../lib/chatops/mute.ts";
import { routeSchema } from "../../lib/model/schema.ts";
import { compileRoutes, selectRoutes } from "../../lib/routing/select.ts";
import { replaceAllowedTargets } from "../../lib/store/config/allowed_targets.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { getRoutes, replaceRoutes } from "../../lib/store/config/routes.ts";
import type { ForgeEvent, Route } from "../../lib/types.ts";
import { CHANNEL, command, GRACE, linkGrace, startDiscordApp } from "../discord_app.ts";
import {
  ALICE_GITHUB,
  GROUP,
  linkUser,
  messageUpdate,
  sendUpdate,
  startTelegramWorld,
  textMessage,
  textsTo,
} from "../_telegram_helpers.ts";

const ACTOR = { userId: "1", login: "root" };

function route(id: string, groupId: string, target: Route["targets"][number]): Route {
  return {
    id,
    name: `Route ${id}`,
    enabled: true,
    groupId,
    filters: [{ type: "event", value: "pull_request" }],
    targets: [target],
  };
}

async function seed(
  kv: Kv,
  member: { userId: string; login: string },
  role: "owner" | "admin" | "viewer",
  chat: Route["targets"][number],
  other: Route["targets"][number],
) {
  await putGroup(kv, {
    id: "team",
    name: "Team",
    members: [{ ...member, role }, { userId: "1", login: "root", role: "owner" }],
  });
  await putGroup(kv, {
    id: "others",
    name: "Others",
    members: [{ userId: "1", login: "root", role: "owner" }],
  });
  await replaceAllowedTargets(kv, "team", [chat, other], ACTOR);
  const routes = [
    route("prs", "team", chat),
    { ...route("all", "team", chat), ast: { any: [{ type: "event", value: "issues" }] } } as Route,
    route("elsewhere", "team", other),
    route("foreign", "others", chat),
  ];
  const result = await replaceRoutes(kv, routes, null);
  assert.ok(result.ok);
}

function pullRequest(sender: Record<string, unknown>, labels: string[] = []): ForgeEvent {
  return {
    id: "01J00000000000000000000000",
    provider: "github",
    kind: "pull_request",
    action: "opened",
    scope: { type: "global" },
    receivedAt: 0,
    headers: {},
    payload: {
      sender,
      pull_request: { number: 1, labels: labels.map((name) => ({ name })) },
    },
  };
}

async function routed(kv: Kv, event: ForgeEvent): Promise<string[]> {
  const { routes } = await getRoutes(kv);
  const groups = ["team", "others"].map((id) => ({ id, name: id, members: [] }));
  const selection = await selectRoutes(event, event.scope, compileRoutes(routes), groups, {
    globalIngress: "all",
  });
  return selection.routes.map((r) => r.id);
}

Deno.test("Discord: mute author, label and bots edit the channel's routes; filters lists them; unmute undoes", async () => {
  await using app = await startDiscordApp();
  const kv = app.t.kv;
  const other = { platform: "discord" as const, channelId: "300000000000000099" };
  await seed(kv, { userId: String(GRACE.id), login: GRACE.login }, "admin", {
    platform: "discord",
    channelId: CHANNEL,
  }, other);
  await linkGrace(app);
  const say = async (name: string, options: Record<string, string> = {}) =>
    ((await app.interact(command(name, options))) as { data: { content: string; flags: number } })
      .data;

  const muted = await say("mute", { what: "author", value: "dependabot[bot]" });
  assert.equal(muted.flags, 64);
  assert.equal(
    muted.content,
    "Muted author dependabot[bot] in this channel (routes: Route prs, Route all).",
  );
  assert.equal(
    (await say("mute", { what: "label", value: "wontfix" })).content,
    'Muted label "wontfix" in this channel (routes: Route prs, Route all).',
  );
  assert.equal(
    (await say("mute", { what: "bots" })).content,
    "Muted bots in this channel (routes: Route prs, Route all).",
  );
  assert.equal(
    (await say("mute", { what: "bots" })).content,
    "bots is already muted in this channel.",
  );

  const { routes } = await getRoutes(kv);
  const byId = new Map(routes.map((r) => [r.id, r]));
  assert.deepEqual(byId.get("prs")!.ast, {
    all: [
      { type: "event", value: "pull_request" },
      { not: { type: "field", path: "sender.login", op: "eq", value: "dependabot[bot]" } },
      { not: { type: "field", path: "$..labels[*].name", op: "eq", value: "wontfix" } },
      { not: muteMatcher({ kind: "bots" }) },
    ],
  });
  assert.deepEqual(byId.get("all")!.ast, {
    all: [
      { any: [{ type: "event", value: "issues" }] },
      { not: { type: "field", path: "sender.login", op: "eq", value: "dependabot[bot]" } },
      { not: { type: "field", path: "$..labels[*].name", op: "eq", value: "wontfix" } },
      { not: muteMatcher({ kind: "bots" }) },
    ],
  });
  assert.equal(byId.get("elsewhere")!.ast, undefined, "a route to another channel is untouched");
  assert.equal(byId.get("foreign")!.ast, undefined, "another group's route is untouched");
  for (const r of routes) assert.ok(routeSchema.safeParse(r).success, "an ordinary route");

  assert.deepEqual(await routed(kv, pullRequest({ login: "octo", type: "User" })), [
    "prs",
    "elsewhere",
    "foreign",
  ]);
  assert.deepEqual(
    await routed(kv, pullRequest({ login: "renovate[bot]", type: "Bot" })),
    ["elsewhere", "foreign"],
  );
  assert.deepEqual(
    await routed(kv, pullRequest({ login: "octo", type: "User" }, ["WontFix"])),
    ["elsewhere", "foreign"],
  );

  assert.equal(
    (await say("filters")).content,
    [
      "Routes posting into this channel:",
      'Route prs (team/prs): author dependabot[bot], label "wontfix", bots',
      'Route all (team/all): author dependabot[bot], label "wontfix", bots',
    ].join("\n"),
  );
  assert.equal(
    (await say("unmute", { what: "label", value: "wontfix" })).content,
    'Unmuted label "wontfix" in this channel (routes: Route prs, Route all).',
  );
  assert.equal(
    (await say("unmute", { what: "label", value: "wontfix" })).content,
    'label "wontfix" was not muted in this channel.',
  );
  const audits = await listAuditEntries(kv, { groupId: "team" });
  assert.deepEqual(
    audits.filter((a) => a.detail?.via === "chat").map((a) => [a.actor.login, a.detail?.change]),
    [
      ["grace", 'unmute label "wontfix"'],
      ["grace", "mute bots"],
      ["grace", 'mute label "wontfix"'],
      ["grace", "mute author dependabot[bot]"],
    ],
  );
  assert.deepEqual(audits[0].detail?.routeIds, ["prs", "all"]);
  assert.equal(audits[0].action, "routes.replace");
});

Deno.test("Discord: refusals: bad input, not linked, a viewer, a direct message, no subscription", async () => {
  await using app = await startDiscordApp();
  const kv = app.t.kv;
  const say = async (name: string, options: Record<string, string> = {}, extra = {}) =>
    ((await app.interact(command(name, options, extra))) as { data: { content: string } }).data
      .content;
  assert.match(await say("mute", { what: "author", value: "bad login!" }), /^Give a GitHub login/);
  assert.match(await say("mute", { what: "label", value: "x".repeat(51) }), /1-50 characters/);
  assert.match(await say("mute", { what: "bots", value: "x" }), /takes nothing/);
  assert.match(await say("mute", { what: "author", value: "octo" }), /^Not linked/);
  await linkGrace(app);
  assert.equal(
    await say("filters"),
    "No group is subscribed to this channel (/gh subscribe).",
  );
  await seed(kv, { userId: String(GRACE.id), login: GRACE.login }, "viewer", {
    platform: "discord",
    channelId: CHANNEL,
  }, { platform: "discord", channelId: "300000000000000099" });
  const before = await getRoutes(kv);
  assert.equal(
    await say("mute", { what: "bots" }),
    "Only an owner or admin of a group that posts into this channel can do this.",
  );
  assert.match(await say("filters", {}, { guild_id: undefined }), /not a direct message/);
  assert.equal((await getRoutes(kv)).versionstamp, before.versionstamp, "nothing was written");
});

Deno.test("Discord: a mute that would pass the tree's leaf limit is refused and nothing is written", async () => {
  await using app = await startDiscordApp();
  const kv = app.t.kv;
  await seed(kv, { userId: String(GRACE.id), login: GRACE.login }, "owner", {
    platform: "discord",
    channelId: CHANNEL,
  }, { platform: "discord", channelId: "300000000000000099" });
  const { routes } = await getRoutes(kv);
  const full = routes.map((r) =>
    r.id === "prs"
      ? {
        ...r,
        ast: {
          all: Array.from({ length: 64 }, (_, i) => ({
            type: "field" as const,
            path: "sender.login",
            op: "ne" as const,
            value: `u${i}`,
          })),
        },
      }
      : r
  );
  assert.ok((await replaceRoutes(kv, full)).ok);
  await linkGrace(app);
  const before = await getRoutes(kv);
  const answer = await app.interact(command("mute", { what: "author", value: "octo" }));
  assert.match(
    (answer as { data: { content: string } }).data.content,
    /^The filter of route Route prs cannot take this: .*64/,
  );
  assert.equal((await getRoutes(kv)).versionstamp, before.versionstamp);
});

Deno.test("Telegram: /gh mute, /gh filters and /gh unmute in a subscribed chat", async () => {
  await using world = await startTelegramWorld();
  const kv = world.t.kv;
  const chat = { platform: "telegram" as const, chatId: String(GROUP) };
  await seed(kv, { userId: String(ALICE_GITHUB.id), login: ALICE_GITHUB.login }, "owner", chat, {
    platform: "telegram",
    chatId: "-100999",
  });
  const say = async (text: string) => {
    await sendUpdate(world.t, messageUpdate(textMessage(text, { chatId: GROUP })));
    return textsTo(world.bot, GROUP).at(-1)!;
  };
  assert.match(await say("/gh mute bots"), /^Not linked/);
  await linkUser(world);
  assert.equal(await say("/gh mute"), (await import("../../lib/chatops/mute.ts")).MUTE_USAGE);
  assert.equal(
    await say("/gh mute label needs triage"),
    'Muted label "needs triage" in this chat (routes: Route prs, Route all).',
  );
  assert.equal(
    await say("/gh mute author octocat"),
    "Muted author octocat in this chat (routes: Route prs, Route all).",
  );
  assert.equal(
    await say("/gh filters"),
    [
      "Routes posting into this chat:",
      'Route prs (team/prs): label "needs triage", author octocat',
      'Route all (team/all): label "needs triage", author octocat',
    ].join("\n"),
  );
  assert.equal(
    await say("/gh unmute author octocat"),
    "Unmuted author octocat in this chat (routes: Route prs, Route all).",
  );
  const { routes } = await getRoutes(kv);
  assert.deepEqual(routes.find((r) => r.id === "prs")!.ast, {
    all: [
      { type: "event", value: "pull_request" },
      { not: { type: "field", path: "$..labels[*].name", op: "eq", value: "needs triage" } },
    ],
  });
  const audits = await listAuditEntries(kv, { groupId: "team" });
  assert.equal(audits[0].actor.login, ALICE_GITHUB.login);
  assert.equal(audits[0].detail?.change, "unmute author octocat");
});
