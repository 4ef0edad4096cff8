import assert from "node:assert/strict";
import { handleWebhook } from "../../lib/ingest/handle.ts";
import { loadEvent, loadEventBody } from "../../lib/store/delivery/events.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import { regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import { signGiteaBody } from "../../lib/providers/gitea.ts";
import { utf8 } from "../../lib/encoding.ts";
import { WEBHOOK_BODY_BYTES } from "../../lib/limits.ts";
import {
  keysUnder,
  NOW,
  onlyEventId,
  SECRETS,
  send,
  testDeps,
  webhookRequest,
  withKv,
} from "../_ingest_helpers.ts";

const FORM = "application/x-www-form-urlencoded";
const EVENT = {
  action: "opened",
  number: 3,
  issue: { number: 3, title: "Ümlaut & spaces + plus", user: { login: "alice" } },
  repository: { id: 1, full_name: "acme/relay" },
  sender: { id: 5, login: "alice" },
};
const EVENT_JSON = JSON.stringify(EVENT);
const OK = { status: 200, body: { ok: true } };
const DUPLICATE = { status: 200, body: { ok: true, duplicate: true } };
const INVALID_SIGNATURE = { status: 401, body: { error: "Invalid signature" } };

/** A form body as GitHub and Gitea send it: `payload=<url-encoded JSON>`. */
function formBody(fields: Record<string, string>): Uint8Array<ArrayBuffer> {
  return utf8(new URLSearchParams(fields).toString());
}

async function githubForm(
  body: Uint8Array<ArrayBuffer>,
  options: { secret?: string; delivery?: string; path?: string } = {},
): Promise<Request> {
  return webhookRequest(body, {
    "content-type": FORM,
    "x-github-event": "issues",
    "x-github-delivery": options.delivery ?? "form-delivery-1",
    "x-hub-signature-256": await signGithubBody(options.secret ?? SECRETS.github[0], body),
  }, options.path);
}

async function giteaForm(
  body: Uint8Array<ArrayBuffer>,
  options: { secret?: string; delivery?: string } = {},
): Promise<Request> {
  return webhookRequest(body, {
    "content-type": FORM,
    "x-gitea-event": "issues",
    "x-gitea-delivery": options.delivery ?? "gitea-form-1",
    "x-gitea-signature": await signGiteaBody(options.secret ?? SECRETS.gitea[0], body),
  });
}

Deno.test("form ingress: a GitHub form body signed over its raw bytes stores the payload's JSON", async () => {
  await withKv(async (kv) => {
    const body = formBody({ payload: EVENT_JSON });
    assert.deepEqual(await send(testDeps(kv), await githubForm(body)), OK);
    const eventId = await onlyEventId(kv);
    const event = await loadEvent(kv, eventId);
    assert.equal(event?.provider, "github");
    assert.equal(event?.kind, "issues");
    assert.equal(event?.action, "opened");
    assert.deepEqual(event?.payload, EVENT);
    assert.deepEqual(await loadEventBody(kv, eventId), utf8(EVENT_JSON), "the JSON, not the form");
  });
});

Deno.test("form ingress: a Gitea form body signed over its raw bytes is accepted", async () => {
  await withKv(async (kv) => {
    const body = formBody({ payload: EVENT_JSON });
    assert.deepEqual(await send(testDeps(kv), await giteaForm(body)), OK);
    const event = await loadEvent(kv, await onlyEventId(kv));
    assert.equal(event?.provider, "gitea");
    assert.deepEqual(event?.payload, EVENT);
  });
});

Deno.test("form ingress: a signature over the decoded JSON or another secret is refused", async (t) => {
  const body = formBody({ payload: EVENT_JSON });
  await t.step("GitHub, signed over the JSON instead of the form", async () => {
    await withKv(async (kv) => {
      const request = webhookRequest(body, {
        "content-type": FORM,
        "x-github-event": "issues",
        "x-hub-signature-256": await signGithubBody(SECRETS.github[0], utf8(EVENT_JSON)),
      });
      assert.deepEqual(await send(testDeps(kv), request), INVALID_SIGNATURE);
      assert.deepEqual(await keysUnder(kv, ["events"]), []);
    });
  });
  await t.step("GitHub, wrong secret", async () => {
    await withKv(async (kv) => {
      const request = await githubForm(body, { secret: "not-the-secret" });
      assert.deepEqual(await send(testDeps(kv), request), INVALID_SIGNATURE);
    });
  });
  await t.step("Gitea, wrong secret", async () => {
    await withKv(async (kv) => {
      const request = await giteaForm(body, { secret: "not-the-secret" });
      assert.deepEqual(await send(testDeps(kv), request), INVALID_SIGNATURE);
      assert.deepEqual(await keysUnder(kv, ["events"]), []);
    });
  });
});

Deno.test("form ingress: a form without exactly one payload field is a clear 400", async (t) => {
  const cases: [string, Uint8Array<ArrayBuffer>][] = [
    ["no payload field", formBody({ event: EVENT_JSON })],
    ["two payload fields", utf8(`payload=${encodeURIComponent(EVENT_JSON)}&payload=%7B%7D`)],
  ];
  for (const [name, body] of cases) {
    await t.step(name, async () => {
      await withKv(async (kv) => {
        const res = await handleWebhook(testDeps(kv), await githubForm(body));
        assert.equal(res.status, 400);
        assert.deepEqual(await res.json(), { error: "Invalid event" });
        assert.match(res.headers.get("x-switchyard-hint") ?? "", /exactly one `payload` field/);
        assert.deepEqual(await keysUnder(kv, ["events"]), []);
      });
    });
  }
  await t.step("a payload that is not a JSON object is Invalid event", async () => {
    await withKv(async (kv) => {
      const res = await send(testDeps(kv), await githubForm(formBody({ payload: "[1]" })));
      assert.deepEqual(res, { status: 400, body: { error: "Invalid event" } });
    });
  });
});

Deno.test("form ingress: de-duplication works as for JSON bodies", async () => {
  await withKv(async (kv) => {
    const body = formBody({ payload: EVENT_JSON });
    assert.deepEqual(await send(testDeps(kv), await githubForm(body, { delivery: "d-1" })), OK);
    assert.deepEqual(
      await send(testDeps(kv), await githubForm(body, { delivery: "d-1" })),
      DUPLICATE,
    );
    assert.equal((await keysUnder(kv, ["events"])).length, 1);
  });
});

Deno.test("form ingress: a group's ingress accepts a form body signed with the group secret", async () => {
  await withKv(async (kv) => {
    await putGroup(kv, {
      id: "team-a",
      name: "Team A",
      members: [{ userId: "1", login: "alice", role: "owner" }],
    });
    const secret = await regenerateGroupSecret(kv, "team-a", NOW);
    const body = formBody({ payload: EVENT_JSON });
    const request = await githubForm(body, { secret, path: "/webhook/team-a" });
    assert.deepEqual(await send(testDeps(kv), request, "team-a"), OK);
    const event = await loadEvent(kv, await onlyEventId(kv));
    const { internalId } = (await readGroupEntry(kv, "team-a")).entry!;
    assert.deepEqual(event?.scope, { type: "group", groupId: "team-a", internalId });
    assert.deepEqual(event?.payload, EVENT);
  });
});

Deno.test("form ingress: a form over the size limit is 413 before anything is parsed", async () => {
  await withKv(async (kv) => {
    const padding = "x".repeat(WEBHOOK_BODY_BYTES);
    const body = formBody({ payload: EVENT_JSON, padding });
    const res = await send(testDeps(kv), await githubForm(body));
    assert.equal(res.status, 413);
  });
});
