import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { signCustomBody } from "../../lib/providers/custom.ts";
import { signGiteaBody } from "../../lib/providers/gitea.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import { loadEvent } from "../../lib/store/delivery/events.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import {
  deleteGroupSecret,
  getGroupSecret,
  regenerateGroupSecret,
} from "../../lib/store/config/group_secrets.ts";
import { signStandardWebhook } from "../../testing/standard_webhooks_sender.ts";
import type { Group } from "../../lib/types.ts";
import {
  fixture,
  githubRequest,
  jsonBytes,
  keysUnder,
  NOW,
  SECRETS,
  send,
  testDeps,
  webhookRequest,
  withKv,
} from "../_ingest_helpers.ts";

const GROUP: Group = {
  id: "team-a",
  name: "Team A",
  members: [{ userId: "1", login: "alice", role: "owner" }],
};
const OK = { status: 200, body: { ok: true } };
const NOT_FOUND = { status: 404, body: { error: "Unknown group webhook" } };
const INVALID_SIGNATURE = { status: 401, body: { error: "Invalid signature" } };

async function groupWithSecret(kv: Kv, group = GROUP): Promise<string> {
  await putGroup(kv, group);
  const secret = await regenerateGroupSecret(kv, group.id, NOW);
  assert.ok(secret);
  return secret;
}

async function eventsInScope(kv: Kv) {
  const events = [];
  for (const key of await keysUnder(kv, ["events"])) {
    events.push(await loadEvent(kv, String(key[1])));
  }
  return events;
}

Deno.test("tenants: create, read, regenerate and delete a group secret", async () => {
  await withKv(async (kv) => {
    assert.equal(await getGroupSecret(kv, "team-a"), null);
    const first = await regenerateGroupSecret(kv, "team-a", NOW);
    assert.match(first ?? "", /^[0-9a-f]{64}$/);
    assert.deepEqual(await getGroupSecret(kv, "team-a"), { secret: first, createdAt: NOW });

    const second = await regenerateGroupSecret(kv, "team-a", NOW + 1);
    assert.match(second, /^[0-9a-f]{64}$/);
    assert.notEqual(second, first);
    assert.deepEqual(await getGroupSecret(kv, "team-a"), { secret: second, createdAt: NOW + 1 });
    assert.deepEqual(await kv.get(["tenant", "team-a"]).then((e) => e.value), {
      secret: second,
      createdAt: NOW + 1,
    });

    await deleteGroupSecret(kv, "team-a");
    assert.equal(await getGroupSecret(kv, "team-a"), null);
  });
});

Deno.test("group ingress: unknown group or group without a secret is 404", async () => {
  await withKv(async (kv) => {
    const body = await fixture("push/payload.json");
    const request = () => githubRequest(body, { event: "push", path: "/webhook/team-a" });
    assert.deepEqual(await send(testDeps(kv), await request(), "team-a"), NOT_FOUND);
    await putGroup(kv, GROUP);
    assert.deepEqual(await send(testDeps(kv), await request(), "team-a"), NOT_FOUND);
    await regenerateGroupSecret(kv, "orphan-secret", NOW);
    assert.deepEqual(await send(testDeps(kv), await request(), "orphan-secret"), NOT_FOUND);
  });
});

Deno.test("group ingress: all three signature headers verify against the group secret", async (t) => {
  const body = jsonBytes({ action: "opened", number: 1 });
  const builders: Record<string, (secret: string) => Promise<Record<string, string>>> = {
    "X-Hub-Signature-256": async (secret) => ({
      "x-github-event": "pull_request",
      "x-hub-signature-256": await signGithubBody(secret, body),
    }),
    "X-Gitea-Signature": async (secret) => ({
      "x-gitea-event": "pull_request",
      "x-gitea-signature": await signGiteaBody(secret, body),
    }),
    "X-Forgejo-Signature": async (secret) => ({
      "x-forgejo-event": "pull_request",
      "x-forgejo-signature": await signGiteaBody(secret, body),
    }),
    "X-Switchyard-Signature": async (secret) => ({
      "x-switchyard-signature": await signCustomBody(secret, body),
    }),
    "Standard Webhooks": async (secret) => ({
      "webhook-id": "msg_g",
      "webhook-timestamp": String(NOW / 1000),
      "webhook-signature": await signStandardWebhook(secret, "msg_g", NOW / 1000, body),
    }),
  };
  for (const [name, build] of Object.entries(builders)) {
    await t.step(name, async () => {
      await withKv(async (kv) => {
        const secret = await groupWithSecret(kv);
        const deps = testDeps(kv);
        const path = "/webhook/team-a";
        assert.deepEqual(
          await send(deps, webhookRequest(body, await build(secret), path), "team-a"),
          OK,
        );
        const [event] = await eventsInScope(kv);
        const { internalId } = (await readGroupEntry(kv, "team-a")).entry!;
        assert.deepEqual(event?.scope, { type: "group", groupId: "team-a", internalId });

        const global = await build(SECRETS.github[0]);
        assert.deepEqual(
          await send(deps, webhookRequest(body, global, path), "team-a"),
          INVALID_SIGNATURE,
        );
        const gitea = await build(SECRETS.gitea[0]);
        assert.deepEqual(
          await send(deps, webhookRequest(body, gitea, path), "team-a"),
          INVALID_SIGNATURE,
        );
        const custom = await build(SECRETS.custom[0]);
        assert.deepEqual(
          await send(deps, webhookRequest(body, custom, path), "team-a"),
          INVALID_SIGNATURE,
        );
      });
    });
  }
});

Deno.test("group ingress: the group secret is refused on the global ingress", async () => {
  await withKv(async (kv) => {
    const secret = await groupWithSecret(kv);
    const body = await fixture("push/payload.json");
    assert.deepEqual(
      await send(testDeps(kv), await githubRequest(body, { event: "push", secret })),
      INVALID_SIGNATURE,
    );
  });
});

Deno.test("group ingress: a regenerated secret replaces the old one at once", async () => {
  await withKv(async (kv) => {
    const old = await groupWithSecret(kv);
    const fresh = await regenerateGroupSecret(kv, "team-a", NOW);
    const body = await fixture("push/payload.json");
    const send2 = async (secret: string) =>
      send(testDeps(kv), await githubRequest(body, { event: "push", secret }), "team-a");
    assert.deepEqual(await send2(old), INVALID_SIGNATURE);
    assert.deepEqual(await send2(fresh), OK);
    await deleteGroupSecret(kv, "team-a");
    assert.deepEqual(await send2(fresh), NOT_FOUND);
  });
});

Deno.test("group ingress: de-duplication is per scope", async () => {
  await withKv(async (kv) => {
    const secretA = await groupWithSecret(kv);
    const secretB = await groupWithSecret(kv, { ...GROUP, id: "team-b" });
    const body = await fixture("push/payload.json");
    const deps = testDeps(kv);
    const delivery = "same-delivery";
    const to = async (groupId: string | undefined, secret: string) =>
      send(deps, await githubRequest(body, { event: "push", delivery, secret }), groupId);

    assert.deepEqual(await to(undefined, SECRETS.github[0]), OK);
    assert.deepEqual(await to("team-a", secretA), OK);
    assert.deepEqual(await to("team-b", secretB), OK);
    assert.deepEqual(await to("team-a", secretA), {
      status: 200,
      body: { ok: true, duplicate: true },
    });
    const scopes = (await eventsInScope(kv)).map((e) => e?.scope);
    const internalIdOf = async (id: string) => (await readGroupEntry(kv, id)).entry!.internalId;
    assert.deepEqual(scopes, [
      { type: "global" },
      { type: "group", groupId: "team-a", internalId: await internalIdOf("team-a") },
      { type: "group", groupId: "team-b", internalId: await internalIdOf("team-b") },
    ]);
  });
});

Deno.test("group ingress: a group named 'global' does not share the global dedup scope", async () => {
  await withKv(async (kv) => {
    const secret = await groupWithSecret(kv, { ...GROUP, id: "global" });
    const body = await fixture("push/payload.json");
    const deps = testDeps(kv);
    assert.deepEqual(
      await send(deps, await githubRequest(body, { event: "push", delivery: "d" })),
      OK,
    );
    assert.deepEqual(
      await send(
        deps,
        await githubRequest(body, { event: "push", delivery: "d", secret }),
        "global",
      ),
      OK,
    );
  });
});

Deno.test("group ingress: nonces are scoped per group", async () => {
  await withKv(async (kv) => {
    const secret = await groupWithSecret(kv);
    const deps = testDeps(kv);
    const body = jsonBytes({ ok: 1 });
    const replay = { timestamp: NOW / 1000, nonce: "shared" };
    const headers = async (key: string) => ({
      "x-switchyard-signature": await signCustomBody(key, body, replay),
      "x-switchyard-timestamp": String(replay.timestamp),
      "x-switchyard-nonce": replay.nonce,
    });
    assert.deepEqual(await send(deps, webhookRequest(body, await headers(SECRETS.custom[0]))), OK);
    assert.deepEqual(await send(deps, webhookRequest(body, await headers(secret)), "team-a"), OK);
    assert.deepEqual(
      await send(deps, webhookRequest(body, await headers(secret)), "team-a"),
      INVALID_SIGNATURE,
    );
  });
});
