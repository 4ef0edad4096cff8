import assert from "node:assert/strict";
import { getGroup, listGroups, putGroup } from "../../lib/store/config/groups.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import type { Group } from "../../lib/types.ts";
import {
  fixture,
  githubRequest,
  jsonBytes,
  keysUnder,
  NOW,
  send,
  testDeps,
  withKv,
} from "../_ingest_helpers.ts";

const OK = { status: 200, body: { ok: true } };
const INSTALLATION_ID = 957387;

async function installationEvent(
  action: "created" | "deleted",
  delivery: string = crypto.randomUUID(),
) {
  const body = await fixture(`installation/${action}.payload.json`);
  return await githubRequest(body, { event: "installation", delivery });
}

/** The `deleted` fixture describes another installation; point it at the created one. */
async function deletedEventFor(installationId: number) {
  const payload = JSON.parse(
    new TextDecoder().decode(await fixture("installation/deleted.payload.json")),
  );
  payload.installation.id = installationId;
  return await githubRequest(jsonBytes(payload), { event: "installation" });
}

Deno.test("installation.created provisions inst-{id}, owned by the installing account", async () => {
  await withKv(async (kv) => {
    assert.deepEqual(await send(testDeps(kv), await installationEvent("created")), OK);
    assert.deepEqual(await getGroup(kv, `inst-${INSTALLATION_ID}`), {
      id: `inst-${INSTALLATION_ID}`,
      name: "Codertocat",
      members: [{ userId: "21031067", login: "Codertocat", role: "owner" }],
      providers: ["github"],
      installationId: INSTALLATION_ID,
      owners: ["Codertocat"],
    });
    const audit = await listAuditEntries(kv, { groupId: `inst-${INSTALLATION_ID}` });
    assert.equal(audit.length, 1);
    assert.equal(audit[0].action, "installation.provision");
    assert.equal(audit[0].at, NOW);
    assert.deepEqual(audit[0].actor, { userId: "21031067", login: "Codertocat" });
    assert.equal(audit[0].target, `installation:${INSTALLATION_ID}`);
    assert.deepEqual(await keysUnder(kv, ["events"]), [], "installation events are not routed");
  });
});

/** The `created` fixture with changes to its payload, as a signed request. */
async function createdEventWith(
  change: (payload: { installation: { account: unknown }; sender: unknown }) => void,
) {
  const payload = JSON.parse(
    new TextDecoder().decode(await fixture("installation/created.payload.json")),
  );
  change(payload);
  return await githubRequest(jsonBytes(payload), { event: "installation" });
}

Deno.test("installation.created for an organization binds nothing: an admin of it confirms first", async () => {
  await withKv(async (kv) => {
    const request = await createdEventWith((payload) => {
      payload.installation.account = { id: 99, login: "octo-org", type: "Organization" };
    });
    assert.deepEqual(await send(testDeps(kv), request), OK);
    assert.deepEqual(await listGroups(kv), []);
    assert.deepEqual(await listAuditEntries(kv), []);
  });
});

Deno.test("installation.created for a user account provisions only when that user sent it", async () => {
  await withKv(async (kv) => {
    const request = await createdEventWith((payload) => {
      payload.sender = { id: 4040, login: "someone-else", type: "User" };
    });
    assert.deepEqual(await send(testDeps(kv), request), OK);
    assert.deepEqual(await listGroups(kv), []);
  });
});

Deno.test("installation: the same delivery id within 5 minutes is answered as a duplicate", async () => {
  await withKv(async (kv) => {
    assert.deepEqual(await send(testDeps(kv), await installationEvent("created", "inst-d1")), OK);
    assert.deepEqual(await send(testDeps(kv), await installationEvent("created", "inst-d1")), {
      status: 200,
      body: { ok: true, duplicate: true },
    });
    assert.deepEqual((await listGroups(kv)).map((g) => g.id), [`inst-${INSTALLATION_ID}`]);
    assert.equal((await listAuditEntries(kv)).length, 1);
  });
});

Deno.test("installation.created is idempotent under redelivery, even concurrent", async () => {
  await withKv(async (kv) => {
    const requests = await Promise.all(
      Array.from({ length: 6 }, (_, i) => installationEvent("created", `redelivery-${i}`)),
    );
    const answers = await Promise.all(requests.map((r) => send(testDeps(kv), r)));
    assert.ok(answers.every((a) => a.status === 200));
    assert.deepEqual(await send(testDeps(kv), await installationEvent("created")), OK);
    assert.deepEqual((await listGroups(kv)).map((g) => g.id), [`inst-${INSTALLATION_ID}`]);
    assert.equal((await listAuditEntries(kv)).length, 1);
  });
});

Deno.test("installation.created binds unbound groups whose super-admin-set owners name the account", async () => {
  await withKv(async (kv) => {
    const byOwnersList: Group = {
      id: "docs",
      name: "Docs",
      members: [{ userId: "9", login: "someone", role: "owner" }],
      owners: ["codertocat"],
    };
    const boundElsewhere: Group = { ...byOwnersList, id: "legacy", installationId: 42 };
    for (const group of [byOwnersList, boundElsewhere]) await putGroup(kv, group);
    assert.deepEqual(await send(testDeps(kv), await installationEvent("created")), OK);

    assert.equal((await getGroup(kv, "docs"))?.installationId, INSTALLATION_ID);
    assert.equal((await getGroup(kv, "legacy"))?.installationId, 42);
    assert.equal(await getGroup(kv, `inst-${INSTALLATION_ID}`), null);
    const actions = (await listAuditEntries(kv)).map((e) => [e.action, e.groupId]);
    assert.deepEqual(actions, [["installation.bind", "docs"]]);

    assert.deepEqual(await send(testDeps(kv), await installationEvent("created")), OK);
    assert.equal((await listAuditEntries(kv)).length, 1, "redelivery changes nothing");
  });
});

Deno.test("installation.created ignores member lists: an owner cannot list the installer to capture it", async () => {
  await withKv(async (kv) => {
    // A group owner adds the future installer's GitHub account as an owner member.
    const trap: Group = {
      id: "trap",
      name: "Trap",
      members: [
        { userId: "666", login: "mallory", role: "owner" },
        { userId: "21031067", login: "Codertocat", role: "owner" },
      ],
    };
    await putGroup(kv, trap);
    assert.deepEqual(await send(testDeps(kv), await installationEvent("created")), OK);
    assert.deepEqual(await getGroup(kv, "trap"), trap);
    const own = await getGroup(kv, `inst-${INSTALLATION_ID}`);
    assert.equal(own?.installationId, INSTALLATION_ID);
    assert.deepEqual(own?.members.map((m) => m.userId), ["21031067"]);
  });
});

Deno.test("installation.created does not bind a group that took the id inst-{id} beforehand", async () => {
  await withKv(async (kv) => {
    // For example an owner renamed their group to the id the installation will provision.
    const squatter: Group = {
      id: `inst-${INSTALLATION_ID}`,
      name: "Squatter",
      members: [{ userId: "666", login: "mallory", role: "owner" }],
    };
    await putGroup(kv, squatter);
    assert.deepEqual(await send(testDeps(kv), await installationEvent("created")), OK);
    assert.deepEqual(await getGroup(kv, squatter.id), squatter);
    assert.deepEqual(await listAuditEntries(kv), []);
  });
});

Deno.test("installation.deleted removes the binding and keeps the group", async () => {
  await withKv(async (kv) => {
    await send(testDeps(kv), await installationEvent("created"));
    await regenerateGroupSecret(kv, `inst-${INSTALLATION_ID}`, NOW);
    assert.deepEqual(await send(testDeps(kv), await deletedEventFor(INSTALLATION_ID)), OK);
    const group = await getGroup(kv, `inst-${INSTALLATION_ID}`);
    assert.ok(group);
    assert.equal(group.installationId, undefined);
    assert.equal(group.name, "Codertocat");
    assert.ok((await kv.get(["tenant", `inst-${INSTALLATION_ID}`])).value);
    const actions = (await listAuditEntries(kv)).map((e) => e.action);
    assert.deepEqual(actions, ["installation.unbind", "installation.provision"]);

    assert.deepEqual(await send(testDeps(kv), await deletedEventFor(INSTALLATION_ID)), OK);
    assert.equal((await listAuditEntries(kv)).length, 2, "redelivery changes nothing");
  });
});

Deno.test("installation events on a group ingress are ordinary events", async () => {
  await withKv(async (kv) => {
    await putGroup(kv, {
      id: "team",
      name: "Team",
      members: [{ userId: "1", login: "a", role: "owner" }],
    });
    const secret = await regenerateGroupSecret(kv, "team", NOW);
    const body = await fixture("installation/created.payload.json");
    const request = await githubRequest(body, { event: "installation", secret: secret! });
    assert.deepEqual(await send(testDeps(kv), request, "team"), OK);
    assert.equal(await getGroup(kv, `inst-${INSTALLATION_ID}`), null);
    assert.equal((await keysUnder(kv, ["events"])).length, 1);
  });
});

Deno.test("an installation event without installation id is 400 Invalid event", async () => {
  await withKv(async (kv) => {
    const request = await githubRequest(jsonBytes({ action: "created", installation: {} }), {
      event: "installation",
    });
    assert.deepEqual(await send(testDeps(kv), request), {
      status: 400,
      body: { error: "Invalid event" },
    });
  });
});
