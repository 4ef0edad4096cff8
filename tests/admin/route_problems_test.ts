/**
 * `GET /admin/api/groups/:id/problems`: a stored route whose filter no longer passes the rules,
 * a route whose platform has no bot token, a paused target
 * (refused for good or failing), and a route silent for many of its group's events are
 * each reported with what to change; a healthy group reports nothing, and only members see it.
 */
import assert from "node:assert/strict";
import { SILENCE_MIN_EVENTS } from "../../lib/admin/route_problems.ts";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import { recordEventRoutes } from "../../lib/store/delivery/event_routes.ts";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import { ulid } from "../../lib/ulid.ts";
import { targetHealthKey } from "../../lib/store/keys.ts";
import type { TargetHealth } from "../../lib/store/delivery/target_health.ts";
import {
  type AdminApp,
  PEOPLE,
  route,
  sendLog,
  startAdminApp,
  storeAuditEntry,
  storeSendLogs,
} from "../_admin_helpers.ts";

const TOKENS = { DISCORD_BOT_TOKEN: "discord-token", TELEGRAM_BOT_TOKEN: "1:telegram" };
const TELEGRAM = { platform: "telegram", chatId: "-100200" } as const;

async function problemsOf(app: AdminApp, caller: "viewer" | "owner" = "viewer") {
  const answer = await app.call(caller, "GET", "/admin/api/groups/alpha/problems");
  assert.equal(answer.status, 200);
  return answer.body.problems as { kind: string; routeId: string; message: string; fix: string }[];
}

async function storeRoutedEvents(
  app: AdminApp,
  count: number,
  firedRouteIds: string[],
  at: number,
) {
  const { entry } = await readGroupEntry(app.kv, "alpha");
  const records = Array.from({ length: count }, (_, index) => {
    const eventId = ulid(at + index);
    return {
      internalId: entry!.internalId,
      record: {
        eventId,
        provider: "github" as const,
        kind: "push",
        groupId: "alpha",
        routeIds: index === 0 ? firedRouteIds : [],
        receivedAt: at + index,
      },
    };
  });
  await recordEventRoutes(app.kv, records, 24 * 60 * 60 * 1000);
}

/** Stores route `ops` of group alpha posting to Discord channel 123456789, paused as `health` says. */
async function pausedChannel(
  app: AdminApp,
  health: Pick<TargetHealth, "state" | "failures" | "lastError" | "httpStatus">,
) {
  const channel = { platform: "discord", channelId: "123456789" } as const;
  assert.ok((await replaceRoutes(app.kv, [route("alpha", "ops", { targets: [channel] })])).ok);
  const { entry } = await readGroupEntry(app.kv, "alpha");
  const paused: TargetHealth = {
    groupId: "alpha",
    target: channel,
    ...health,
    pausedAt: Date.now(),
    updatedAt: Date.now(),
  };
  await app.kv.set(targetHealthKey(entry!.internalId, "discord:123456789"), paused);
}

Deno.test("route problems: a healthy group reports none", async () => {
  await using app = await startAdminApp(TOKENS);
  assert.ok((await replaceRoutes(app.kv, [route("alpha", "r1")])).ok);
  await storeSendLogs(app.kv, [sendLog(Date.now())]);
  assert.deepEqual(await problemsOf(app), []);
});

Deno.test("route problems: a platform without a bot token is named with the setting to set", async () => {
  await using app = await startAdminApp({ DISCORD_BOT_TOKEN: "discord-token" });
  assert.ok((await replaceRoutes(app.kv, [route("alpha", "tg", { targets: [TELEGRAM] })])).ok);
  const problems = await problemsOf(app);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].kind, "platform_not_configured");
  assert.equal(problems[0].routeId, "tg");
  assert.match(problems[0].message, /Telegram is not configured/);
  assert.match(problems[0].fix, /TELEGRAM_BOT_TOKEN.*restart/);
});

Deno.test("route problems: a target the bot cannot post to is named by its health, not by old send logs", async () => {
  await using app = await startAdminApp(TOKENS);
  // Refusals in the send logs alone (a resumed target, history from before target health) are no
  // problem: a refusal met by a message pauses the target, and the paused target is the problem.
  await storeSendLogs(app.kv, [
    sendLog(Date.now(), { status: "failed", httpStatus: 403, error: "Missing Access" }),
  ]);
  await pausedChannel(app, {
    state: "broken",
    failures: 1,
    lastError: "Missing Access",
    httpStatus: 403,
  });
  const problems = await problemsOf(app);
  assert.deepEqual(problems.map((p) => [p.kind, p.routeId]), [["target_paused", "ops"]]);
  assert.match(
    problems[0].message,
    /discord channel 123456789 is paused: the bot cannot post there \(answer 403: Missing Access\)/,
  );
  assert.match(problems[0].fix, /Invite the bot/);

  await app.kv.delete(
    targetHealthKey((await readGroupEntry(app.kv, "alpha")).entry!.internalId, "discord:123456789"),
  );
  assert.deepEqual(await problemsOf(app), []);
});

Deno.test("route problems: a route silent for many events since the routes changed is named; a fallback is not", async () => {
  await using app = await startAdminApp(TOKENS);
  assert.ok(
    (await replaceRoutes(app.kv, [
      route("alpha", "busy"),
      route("alpha", "quiet"),
      route("alpha", "off", { enabled: false }),
      route("alpha", "rest", { fallback: true }),
    ])).ok,
  );
  const start = Date.now() - 60 * 60 * 1000;
  await storeRoutedEvents(app, SILENCE_MIN_EVENTS - 1, ["busy"], start);
  assert.deepEqual(await problemsOf(app), [], "too few events to judge");

  await storeRoutedEvents(app, 1, ["busy"], start + 10_000);
  const problems = await problemsOf(app);
  assert.deepEqual(problems.map((p) => [p.kind, p.routeId]), [["not_firing", "quiet"]]);
  assert.match(problems[0].message, new RegExp(`last ${SILENCE_MIN_EVENTS} events`));

  // A change of the group's routes starts the count again.
  await storeAuditEntry(app.kv, {
    actor: { userId: PEOPLE.owner.userId, login: PEOPLE.owner.login },
    action: "routes.replace",
    groupId: "alpha",
  }, start + 20_000);
  assert.deepEqual(await problemsOf(app), []);
});

Deno.test("route problems: strangers and other groups' owners are refused", async () => {
  await using app = await startAdminApp(TOKENS);
  for (const caller of ["stranger", "otherOwner"] as const) {
    const answer = await app.call(caller, "GET", "/admin/api/groups/alpha/problems");
    assert.equal(answer.status, 403, caller);
  }
  const unknown = await app.call("owner", "GET", "/admin/api/groups/nope/problems");
  assert.equal(unknown.status, 404);
});

Deno.test("route problems: a stored route whose filter no longer passes the rules is named: it never fires", async () => {
  await using app = await startAdminApp(TOKENS);
  // Stored as an earlier version accepted it: February 30 is no timestamp.
  const stale = route("alpha", "dated", {
    ast: { type: "field", path: "pull_request.created_at", op: "gt", value: "2026-02-30" },
  });
  assert.ok((await replaceRoutes(app.kv, [route("alpha", "r1"), stale])).ok);
  const problems = await problemsOf(app);
  assert.deepEqual(problems.map((problem) => [problem.kind, problem.routeId]), [
    ["filter_invalid", "dated"],
  ]);
  assert.match(problems[0].message, /ISO-8601 timestamp\), so it never fires/);
  assert.match(problems[0].fix, /correct its filter/);
  const page = await app.call("viewer", "GET", "/admin/routes/alpha");
  assert.match(page.body as string, /Filter invalid/);
});

Deno.test("route problems: the routes list, the group page and the overview show them with the fix", async () => {
  await using app = await startAdminApp({ DISCORD_BOT_TOKEN: "discord-token" });
  assert.ok((await replaceRoutes(app.kv, [route("alpha", "tg", { targets: [TELEGRAM] })])).ok);
  for (const path of ["/admin/routes/alpha", "/admin/groups/alpha", "/admin"]) {
    const answer = await app.call("viewer", "GET", path);
    assert.equal(answer.status, 200, path);
    const html = answer.body as string;
    assert.match(html, /data-testid="route-problems"/, path);
    assert.match(html, /Platform not configured/, path);
    assert.match(
      html,
      /Set TELEGRAM_BOT_TOKEN in Switchyard&#x27;s settings and restart it|Set TELEGRAM_BOT_TOKEN in Switchyard's settings and restart it/,
      path,
    );
    assert.match(html, /href="\/admin\/routes\/alpha\/edit\/tg"/, path);
  }
  // Another group's member sees none of alpha's problems on the overview.
  const other = await app.call("otherOwner", "GET", "/admin");
  assert.doesNotMatch(other.body as string, /route-problems/);
});

Deno.test("route problems: routes sharing one problem show as one item naming a few of them", async () => {
  await using app = await startAdminApp({ DISCORD_BOT_TOKEN: "discord-token" });
  const routes = Array.from(
    { length: 12 },
    (_, index) => route("alpha", `tg${index}`, { targets: [TELEGRAM] }),
  );
  assert.ok((await replaceRoutes(app.kv, [...routes, route("alpha", "dc")])).ok);
  // The API still lists each route's problem.
  assert.equal((await problemsOf(app)).length, 12);
  for (const path of ["/admin/routes/alpha", "/admin/groups/alpha", "/admin"]) {
    const html = (await app.call("viewer", "GET", path)).body as string;
    const items = [...html.matchAll(/data-problem="platform_not_configured"/g)];
    assert.equal(items.length, 1, path);
    assert.match(html, /1 problem needs attention/, path);
    assert.match(html, /data-routes="12"/, path);
    for (const shown of ["tg0", "tg1", "tg2", "tg3", "tg4"]) {
      assert.match(html, new RegExp(`href="/admin/routes/alpha/edit/${shown}"`), path);
    }
    assert.match(html, /and 7 more/, path);
    assert.match(
      html,
      /Telegram is not configured on this Switchyard, so no Telegram message can be sent/,
      path,
    );
  }
});

Deno.test("route problems: the route editor flags a target whose platform has no bot token", async () => {
  await using app = await startAdminApp({ DISCORD_BOT_TOKEN: "discord-token" });
  assert.ok(
    (await replaceRoutes(app.kv, [
      route("alpha", "tg", { targets: [TELEGRAM] }),
      route("alpha", "dc"),
    ])).ok,
  );
  const telegram = await app.call("owner", "GET", "/admin/routes/alpha/edit/tg");
  assert.equal(telegram.status, 200);
  assert.match(
    telegram.body as string,
    /data-testid="platform-not-configured"[^>]*>Telegram is not configured on this Switchyard: set TELEGRAM_BOT_TOKEN/,
  );
  const discord = await app.call("owner", "GET", "/admin/routes/alpha/edit/dc");
  assert.doesNotMatch(discord.body as string, /platform-not-configured/);
});

Deno.test("route problems: a paused target shows with Resume and Discard, and Resume through the API heals it", async () => {
  await using app = await startAdminApp({ DISCORD_BOT_TOKEN: "discord-token" });
  await pausedChannel(app, {
    state: "broken",
    failures: 1,
    lastError: "Missing Access",
    httpStatus: 403,
  });

  const [paused] = await problemsOf(app);
  assert.equal(paused.kind, "target_paused");
  assert.match(paused.message, /discord channel 123456789 is paused: the bot cannot post there/);
  for (const path of ["/admin/groups/alpha", "/admin/routes/alpha", "/admin"]) {
    const html = (await app.call("owner", "GET", path)).body as string;
    assert.match(html, /Target paused/, path);
    assert.match(html, />Resume<\/button>/, path);
    assert.match(html, />Discard<\/button>/, path);
  }

  const viewer = await app.call("viewer", "POST", "/admin/api/groups/alpha/target-health/resume", {
    body: { target: "discord:123456789" },
  });
  assert.equal(viewer.status, 403);
  const bad = await app.call("owner", "POST", "/admin/api/groups/alpha/target-health/resume", {
    body: { target: "discord:../x" },
  });
  assert.equal(bad.status, 400);
  const resumed = await app.call("owner", "POST", "/admin/api/groups/alpha/target-health/resume", {
    body: { target: "discord:123456789" },
  });
  assert.equal(resumed.status, 200);
  assert.deepEqual(resumed.body, { resumed: 0 });
  assert.deepEqual(await problemsOf(app), []);
  const audit = await app.call("owner", "GET", "/admin/api/audit?groupId=alpha");
  assert.equal(audit.body.items[0].action, "target.resume");
});

Deno.test("target health: a malformed target key is the request schema's 400 naming the field; a good key is 200", async () => {
  await using app = await startAdminApp({ DISCORD_BOT_TOKEN: "discord-token" });
  await pausedChannel(app, { state: "paused", failures: 5 });
  const path = (action: string) => `/admin/api/groups/alpha/target-health/${action}`;

  for (const action of ["resume", "discard"]) {
    for (const target of ["discord:../x", "telegram:-100/x", "discord:", "slack:123"]) {
      const bad = await app.call("owner", "POST", path(action), { body: { target } });
      assert.equal(bad.status, 400, `${action} ${target}`);
      assert.deepEqual(bad.body, {
        error: "target: must be discord:<channel or thread id> or " +
          "telegram:<chat id>[/<topic id>], like discord:123 or telegram:-100123/7",
      }, `${action} ${target}`);
    }
    const notText = await app.call("owner", "POST", path(action), { body: { target: 5 } });
    assert.equal(notText.status, 400);
    assert.match(notText.body.error, /^target: /);
  }
  const discarded = await app.call("owner", "POST", path("discard"), {
    body: { target: "discord:123456789" },
  });
  assert.equal(discarded.status, 200);
  assert.deepEqual(discarded.body, { discarded: 0 });
  const resumed = await app.call("owner", "POST", path("resume"), {
    body: { target: "discord:123456789" },
  });
  assert.equal(resumed.status, 200);
  assert.deepEqual(resumed.body, { resumed: 0 });
  const topic = await app.call("owner", "POST", path("resume"), {
    body: { target: "telegram:-100123/7" },
  });
  assert.equal(topic.status, 404, "a topic's key is well formed; it was never paused");

  const document = await (await app.t.fetch("/openapi.json")).json();
  for (const action of ["resume", "discard"]) {
    const name = `/admin/api/groups/{id}/target-health/${action}`;
    const body = document.paths[name].post.requestBody.content["application/json"].schema;
    const id = String(body.$ref).replace("#/components/schemas/", "");
    const key = document.components.schemas[id].properties.target;
    assert.ok(new RegExp(key.pattern).test("telegram:-100123/7"), name);
    assert.ok(!new RegExp(key.pattern).test("discord:../x"), `${name}: the format is documented`);
  }
});
