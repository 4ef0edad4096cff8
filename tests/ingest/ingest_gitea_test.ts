import assert from "node:assert/strict";
import { loadEvent } from "../../lib/store/delivery/events.ts";
import { signGiteaBody } from "../../lib/providers/gitea.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import { normalizeGiteaName } from "../../lib/providers/gitea_names.ts";
import { detectProvider } from "../../lib/providers/detect.ts";
import {
  jsonBytes,
  keysUnder,
  onlyEventId,
  SECRETS,
  send,
  testDeps,
  webhookRequest,
  withKv,
} from "../_ingest_helpers.ts";

const PR_SYNC = jsonBytes({
  action: "synchronized",
  number: 7,
  pull_request: {
    id: 70,
    number: 7,
    title: "Speed up",
    user: { login: "alice", username: "alice" },
  },
  repository: { id: 1, full_name: "acme/relay" },
  sender: { id: 5, login: "alice", username: "alice" },
});

/** The headers a Gitea (or, with `forgejo`, a Forgejo) hook sends, GitHub copies included. */
async function giteaHeaders(
  body: Uint8Array<ArrayBuffer>,
  event: string,
  options: { secret?: string; forgejo?: boolean; delivery?: string } = {},
): Promise<Record<string, string>> {
  const secret = options.secret ?? SECRETS.gitea[0];
  const hex = secret === "" ? "" : await signGiteaBody(secret, body);
  const delivery = options.delivery ?? "9f3c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
  const headers: Record<string, string> = {
    "x-gitea-event": event,
    "x-gitea-event-type": event,
    "x-gitea-delivery": delivery,
    "x-gitea-signature": hex,
    "x-gogs-event": event,
    "x-gogs-signature": hex,
    "x-github-event": event,
    "x-github-delivery": delivery,
    "x-hub-signature-256": hex === "" ? "" : `sha256=${hex}`,
  };
  if (options.forgejo) {
    Object.assign(headers, {
      "x-forgejo-event": event,
      "x-forgejo-delivery": delivery,
      "x-forgejo-signature": hex,
    });
  }
  return headers;
}

Deno.test("gitea: Gitea is detected before the GitHub copies of its headers", () => {
  const headers = new Headers({
    "x-github-event": "push",
    "x-hub-signature-256": "sha256=00",
    "x-gitea-event": "push",
  });
  assert.equal(detectProvider(headers)?.provider, "gitea");
  assert.equal(detectProvider(new Headers({ "x-forgejo-signature": "" }))?.provider, "gitea");
  assert.equal(detectProvider(new Headers({ "x-gitea-signature": "ab" }))?.provider, "gitea");
  assert.equal(detectProvider(new Headers({ "x-github-event": "push" }))?.provider, "github");
  assert.equal(detectProvider(new Headers({ "x-hub-signature-256": "x" }))?.provider, "github");
  assert.equal(
    detectProvider(new Headers({ "x-switchyard-signature": "x" }))?.provider,
    "custom",
  );
  assert.equal(detectProvider(new Headers({ "webhook-signature": "x" }))?.provider, "custom");
  assert.equal(detectProvider(new Headers({ "content-type": "application/json" })), null);
});

Deno.test("gitea: a signed delivery is stored with GitHub's names and provider gitea", async () => {
  await withKv(async (kv) => {
    const headers = await giteaHeaders(PR_SYNC, "pull_request");
    const res = await send(testDeps(kv), webhookRequest(PR_SYNC, headers));
    assert.deepEqual(res, { status: 200, body: { ok: true } });
    const event = await loadEvent(kv, await onlyEventId(kv));
    assert.equal(event?.provider, "gitea");
    assert.equal(event?.kind, "pull_request");
    assert.equal(event?.action, "synchronize");
    assert.equal(event?.deliveryId, headers["x-gitea-delivery"]);
    assert.equal(event?.headers["x-gitea-event"], "pull_request");
    assert.equal(event?.headers["x-gitea-signature"], undefined);
    assert.equal(event?.headers["x-hub-signature-256"], undefined);
    assert.equal((event?.payload as { action: string }).action, "synchronized");
  });
});

Deno.test("gitea: Forgejo's X-Forgejo-Signature alone is accepted", async () => {
  await withKv(async (kv) => {
    const headers = await giteaHeaders(PR_SYNC, "pull_request", { forgejo: true });
    delete headers["x-gitea-signature"];
    delete headers["x-gitea-event"];
    const res = await send(testDeps(kv), webhookRequest(PR_SYNC, headers));
    assert.deepEqual(res, { status: 200, body: { ok: true } });
    const event = await loadEvent(kv, await onlyEventId(kv));
    assert.equal(event?.provider, "gitea");
    assert.equal(event?.kind, "pull_request");
  });
});

Deno.test("gitea: empty, wrong or GitHub-keyed signatures are 401", async (t) => {
  const invalid = { status: 401, body: { error: "Invalid signature" } };
  await t.step("hook without a secret: empty signature headers", async () => {
    await withKv(async (kv) => {
      const headers = await giteaHeaders(PR_SYNC, "pull_request", { secret: "" });
      assert.deepEqual(await send(testDeps(kv), webhookRequest(PR_SYNC, headers)), invalid);
    });
  });
  await t.step("empty signature even when a Gitea secret is the empty-string HMAC", async () => {
    await withKv(async (kv) => {
      const headers = await giteaHeaders(PR_SYNC, "pull_request", { secret: "" });
      const deps = testDeps(kv, { secrets: { ...SECRETS, gitea: [""] } });
      assert.deepEqual(await send(deps, webhookRequest(PR_SYNC, headers)), invalid);
    });
  });
  await t.step("wrong secret", async () => {
    await withKv(async (kv) => {
      const headers = await giteaHeaders(PR_SYNC, "pull_request", { secret: "nope" });
      assert.deepEqual(await send(testDeps(kv), webhookRequest(PR_SYNC, headers)), invalid);
    });
  });
  await t.step("signed with the GitHub secret: Gitea uses its own", async () => {
    await withKv(async (kv) => {
      const headers = await giteaHeaders(PR_SYNC, "pull_request", { secret: SECRETS.github[0] });
      headers["x-hub-signature-256"] = await signGithubBody(SECRETS.github[0], PR_SYNC);
      assert.deepEqual(await send(testDeps(kv), webhookRequest(PR_SYNC, headers)), invalid);
    });
  });
  await t.step("no Gitea secret configured", async () => {
    await withKv(async (kv) => {
      const headers = await giteaHeaders(PR_SYNC, "pull_request");
      const deps = testDeps(kv, { secrets: { ...SECRETS, gitea: [] } });
      assert.deepEqual(await send(deps, webhookRequest(PR_SYNC, headers)), invalid);
      assert.deepEqual(await keysUnder(kv, []), []);
    });
  });
});

Deno.test("gitea: a missing X-Gitea-Event is 400 Invalid event", async () => {
  await withKv(async (kv) => {
    const headers = await giteaHeaders(PR_SYNC, "pull_request");
    delete headers["x-gitea-event"];
    assert.deepEqual(await send(testDeps(kv), webhookRequest(PR_SYNC, headers)), {
      status: 400,
      body: { error: "Invalid event" },
    });
  });
});

Deno.test("gitea: review events arrive as pull_request_review.submitted", async () => {
  await withKv(async (kv) => {
    const body = jsonBytes({ action: "reviewed", review: { type: "approved" }, number: 7 });
    const headers = await giteaHeaders(body, "pull_request_approved");
    assert.deepEqual(await send(testDeps(kv), webhookRequest(body, headers)), {
      status: 200,
      body: { ok: true },
    });
    const event = await loadEvent(kv, await onlyEventId(kv));
    assert.equal(event?.kind, "pull_request_review");
    assert.equal(event?.action, "submitted");
  });
});

Deno.test("gitea: the name table maps Gitea's events and actions to GitHub's", () => {
  const cases: [string, string | undefined, string, string | undefined][] = [
    ["pull_request", "synchronized", "pull_request", "synchronize"],
    ["pull_request", "opened", "pull_request", "opened"],
    ["pull_request", "label_updated", "pull_request", "labeled"],
    ["pull_request", "label_cleared", "pull_request", "unlabeled"],
    ["pull_request_approved", "reviewed", "pull_request_review", "submitted"],
    ["pull_request_rejected", "reviewed", "pull_request_review", "submitted"],
    ["pull_request_comment", "reviewed", "pull_request_review", "submitted"],
    ["pull_request_review_approved", "reviewed", "pull_request_review", "submitted"],
    ["pull_request_sync", "synchronized", "pull_request", "synchronize"],
    ["pull_request_assign", "assigned", "pull_request", "assigned"],
    ["pull_request_label", "label_updated", "pull_request", "labeled"],
    ["pull_request_milestone", "milestoned", "pull_request", "milestoned"],
    ["pull_request_review_request", "review_requested", "pull_request", "review_requested"],
    ["issue_assign", "assigned", "issues", "assigned"],
    ["issue_label", "label_cleared", "issues", "unlabeled"],
    ["issue_milestone", "demilestoned", "issues", "demilestoned"],
    ["issues", "opened", "issues", "opened"],
    ["issue_comment", "created", "issue_comment", "created"],
    ["release", "updated", "release", "edited"],
    ["release", "published", "release", "published"],
    ["repository", "updated", "repository", "updated"],
    ["push", undefined, "push", undefined],
    ["create", undefined, "create", undefined],
    ["delete", undefined, "delete", undefined],
    ["workflow_run", "queued", "workflow_run", "queued"],
    ["constructor", "toString", "constructor", "toString"],
    ["__proto__", "valueOf", "__proto__", "valueOf"],
    ["hasOwnProperty", "constructor", "hasOwnProperty", "constructor"],
  ];
  for (const [event, action, kind, normalized] of cases) {
    assert.deepEqual(
      normalizeGiteaName(event, action),
      normalized === undefined ? { kind } : { kind, action: normalized },
      `${event}.${action}`,
    );
  }
});
