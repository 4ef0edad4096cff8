/**
 * Which groups a global event enters when its installation is bound to a group: only the bound
 * groups, whatever GLOBAL_INGRESS_GROUPS says; events without an installation, or of an
 * installation no group is bound to, enter every group (with the default `all`).
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { compileRoutes, selectRoutes } from "../../lib/routing/select.ts";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import type { Group, Route } from "../../lib/types.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { startTestApp } from "../_helpers.ts";
import { githubRequest, jsonBytes, SECRETS } from "../_ingest_helpers.ts";
import { logsOf, runWorker, storeRoutes, waitFor } from "../_delivery_helpers.ts";

const INSTALLATION_ID = 4242;

function issueEvent(number: number, installationId?: number): Record<string, unknown> {
  return {
    action: "opened",
    issue: {
      number,
      title: `Private issue ${number}`,
      html_url: `https://github.com/acme/private/issues/${number}`,
      user: { login: "alice" },
    },
    repository: { id: 1, full_name: "acme/private", owner: { login: "acme" } },
    sender: { login: "alice" },
    ...(installationId === undefined ? {} : { installation: { id: installationId } }),
  };
}

/** The groups a delivery's units went to, once all of them are final (created together). */
async function groupsReached(kv: Kv, deliveryId: string): Promise<string[]> {
  let groups: string[] = [];
  await waitFor(`delivery ${deliveryId} to settle`, async () => {
    const logs = await logsOf(kv, deliveryId);
    groups = logs.map((log) => log.groupId).sort();
    return logs.length > 0 && logs.every((log) => log.status === "ok");
  });
  return groups;
}

function issuesRoute(groupId: string, channelId: string): Route {
  return {
    id: `issues-${groupId}`,
    name: `Issues of ${groupId}`,
    enabled: true,
    groupId,
    filters: [{ type: "event", value: "issues" }],
    targets: [{ platform: "discord", channelId }],
  };
}

Deno.test("global ingress: an event of an installation bound to group A reaches A's route, not B's; one without installation reaches both", async () => {
  await using discord = startFakeDiscord();
  await using app = await startTestApp({
    GITHUB_WEBHOOK_SECRET: SECRETS.github[0],
    DISCORD_BOT_TOKEN: "test-bot-token",
    DISCORD_API_URL: discord.url,
  });
  assert.equal(app.config.globalIngressGroups, "all", "the default");
  await storeRoutes(app.kv, [issuesRoute("group-a", "1001"), issuesRoute("group-b", "2002")]);
  const groupA = await getGroup(app.kv, "group-a");
  assert.ok(groupA);
  await putGroup(app.kv, { ...groupA, installationId: INSTALLATION_ID });
  await using _worker = runWorker(app.kv, app.config);

  const deliver = async (delivery: string, payload: Record<string, unknown>) => {
    const request = await githubRequest(jsonBytes(payload), { event: "issues", delivery });
    const response = await app.app.fetch(request);
    assert.deepEqual({ status: response.status, body: await response.json() }, {
      status: 200,
      body: { ok: true },
    });
  };

  await deliver("bound-1", issueEvent(1, INSTALLATION_ID));
  assert.deepEqual(await groupsReached(app.kv, "bound-1"), ["group-a"]);

  await deliver("plain-2", issueEvent(2));
  assert.deepEqual(await groupsReached(app.kv, "plain-2"), ["group-a", "group-b"]);

  await deliver("unbound-3", issueEvent(3, 9999));
  assert.deepEqual(await groupsReached(app.kv, "unbound-3"), ["group-b"], "A is bound elsewhere");

  const channels = discord.received.map((message) => message.chat);
  assert.equal(channels.filter((chat) => chat === "2002").length, 2, "B never sees issue 1");
  assert.equal(channels.filter((chat) => chat === "1001").length, 2);
});

Deno.test("select: a global event of a bound installation enters only the bound groups, in both modes", async () => {
  const groups: Group[] = [
    { id: "bound-1", name: "Bound 1", members: [], installationId: 77 },
    { id: "bound-2", name: "Bound 2", members: [], installationId: 77 },
    { id: "owned", name: "Owned", members: [], owners: ["acme"] },
    { id: "open", name: "Open", members: [] },
  ];
  const routes = compileRoutes(groups.map((group) => issuesRoute(group.id, "1")));
  const entered = async (installationId: number | undefined, mode: "all" | "claimed") =>
    (await selectRoutes(
      {
        kind: "issues",
        action: "opened",
        provider: "github",
        payload: issueEvent(1, installationId),
      },
      { type: "global" },
      routes,
      groups,
      { globalIngress: mode },
    )).entered.sort();
  assert.deepEqual(await entered(77, "all"), ["bound-1", "bound-2"]);
  assert.deepEqual(await entered(77, "claimed"), ["bound-1", "bound-2"]);
  assert.deepEqual(await entered(undefined, "all"), ["bound-1", "bound-2", "open", "owned"]);
  assert.deepEqual(await entered(5, "all"), ["open", "owned"]);
  assert.deepEqual(await entered(5, "claimed"), ["owned"]);
  const ownIngress = await selectRoutes(
    { kind: "issues", action: "opened", provider: "github", payload: issueEvent(1, 77) },
    { type: "group", groupId: "open" },
    routes,
    groups,
  );
  assert.deepEqual(ownIngress.entered, ["open"], "a group's own ingress is its own choice");
});
