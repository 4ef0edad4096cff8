/**
 * Chat-ops for CI on Discord, end to end against the fakes: a workflow run's card offers
 * Cancel while it runs and Re-run failed jobs / Re-run all once it failed (the card edited in
 * place); a deployment waiting for review offers Approve and Reject, whose comment form reviews
 * as the presser and edits the card, or shows GitHub's refusal; `/gh issue` opens a form and
 * then the issue. Every call reaches GitHub with the presser's own token.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { subjectTag } from "../../lib/format/subject.ts";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import { getMessageRef, saveMessageRef } from "../../lib/store/delivery/message_refs.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { runWorker, settled, storeRoutes, waitFor } from "../_delivery_helpers.ts";
import { fixture, fixtureJson, githubRequest, SECRETS } from "../_ingest_helpers.ts";
import { ciRoute, deploymentStatusOf } from "../_ci_helpers.ts";
import { utf8 } from "../../lib/encoding.ts";
import {
  CHANNEL,
  command,
  type DiscordApp,
  followUpOf,
  interaction,
  linkGrace,
  startDiscordApp,
} from "../discord_app.ts";

const ROLE = "600000000000000006";
const CARD = "700000000000000007";
const RUN_ID = 289782451;
const DEPLOY_RUN = 5453085689;
const TARGET = { platform: "discord", channelId: CHANNEL } as const;

async function bindAcme(kv: Kv, owner: string): Promise<void> {
  const group = await getGroup(kv, "acme");
  await putGroup(kv, { ...group!, owners: [owner] });
}

function press(
  customId: string,
  options: { messageId?: string; roles?: string[] } = {},
): Record<string, unknown> {
  const { messageId = CARD, roles = [ROLE] } = options;
  return interaction(3, { custom_id: customId, component_type: 2 }, {
    message: { id: messageId },
    member: { user: { id: "400000000000000004", username: "gracie" }, roles, permissions: "0" },
  });
}

function submit(customId: string, values: Record<string, string>): Record<string, unknown> {
  return interaction(5, {
    custom_id: customId,
    components: Object.entries(values).map(([id, value]) => ({
      type: 18,
      component: { type: 4, custom_id: id, value },
    })),
  }, {
    message: { id: CARD },
    member: { user: { id: "400000000000000004" }, roles: [ROLE], permissions: "0" },
  });
}

function labelsOf(body: Record<string, unknown>): unknown[] {
  const rows = (body.components ?? []) as { components: Record<string, unknown>[] }[];
  return rows.flatMap((row) => row.components.map((c) => c.custom_id ?? c.label));
}

/** The token the fake GitHub handed out for the linked user (sent as the bearer). */
function graceToken(app: DiscordApp): string | null {
  return app.github.requestsTo("/repos/")[0]?.headers.get("authorization") ?? null;
}

Deno.test("a running workflow run's card offers Cancel, once failed Re-run failed jobs and Re-run all, each as the presser", async () => {
  await using discord = startFakeDiscord();
  await using app = await startDiscordApp({
    GITHUB_WEBHOOK_SECRET: SECRETS.github[0],
    DISCORD_BOT_TOKEN: "test-bot-token",
  }, discord.url);
  await storeRoutes(app.t.kv, [ciRoute("workflow_run", TARGET, [ROLE])]);
  await bindAcme(app.t.kv, "octo-org");
  await using _worker = runWorker(app.t.kv, app.t.config);
  const tag = subjectTag("octo-org/octo-repo", RUN_ID);

  const queued = await fixture("workflow_run/requested.payload.json");
  const first = await app.t.app.fetch(
    await githubRequest(queued, { event: "workflow_run", delivery: "run-1" }),
  );
  assert.equal(first.status, 200);
  assert.equal((await settled(app.t.kv, "run-1"))[0].status, "ok");
  const card = discord.received[0];
  assert.deepEqual(labelsOf(card.body), [`gh:run-cancel#${tag}`, "Open on GitHub"]);
  const place = { platform: "discord" as const, chatId: CHANNEL, messageId: card.messageId };
  const remembered = await getMessageRef(app.t.kv, place);
  assert.deepEqual(
    [remembered?.subject.kind, remembered?.subject.number, remembered?.subject.repository],
    ["run", RUN_ID, "octo-org/octo-repo"],
  );

  const failed = await fixtureJson("workflow_run/completed.payload.json");
  (failed.workflow_run as Record<string, unknown>).conclusion = "failure";
  const second = await app.t.app.fetch(
    await githubRequest(utf8(JSON.stringify(failed)), { event: "workflow_run", delivery: "run-2" }),
  );
  assert.equal(second.status, 200);
  assert.equal((await settled(app.t.kv, "run-2"))[0].status, "ok");
  assert.equal(discord.received.length, 1, "the failure edits the card, nothing new is posted");
  const edited = discord.edits.at(-1)!;
  assert.equal(edited.messageId, card.messageId);
  assert.deepEqual(labelsOf(edited.body), [
    `gh:rerun-failed#${tag}`,
    `gh:rerun#${tag}`,
    "Open on GitHub",
  ]);

  // The re-run's new attempt starts over (requested, then in progress): the card follows it.
  const again = await fixtureJson("workflow_run/requested.payload.json");
  (again.workflow_run as Record<string, unknown>).run_attempt = 2;
  const third = await app.t.app.fetch(
    await githubRequest(utf8(JSON.stringify(again)), { event: "workflow_run", delivery: "run-3" }),
  );
  assert.equal(third.status, 200);
  const [attempt] = await settled(app.t.kv, "run-3");
  assert.equal(attempt.status, "ok");
  assert.equal(attempt.skipped, undefined, "a new attempt is not taken for a late event");
  assert.equal(discord.received.length, 1);
  assert.deepEqual(labelsOf(discord.edits.at(-1)!.body), [
    `gh:run-cancel#${tag}`,
    "Open on GitHub",
  ]);

  await linkGrace(app);
  const refused = await app.interact(press(`gh:rerun#${tag}`, {
    messageId: card.messageId,
    roles: [],
  })) as { data: { content: string } };
  assert.equal(
    refused.data.content,
    "Only members with one of this notification's roles may use its buttons.",
  );
  assert.equal(app.github.requestsTo("/repos/").length, 0, "the refused press reached nobody");

  const rerunFailed = press(`gh:rerun-failed#${tag}`, { messageId: card.messageId });
  assert.deepEqual(await app.interact(rerunFailed), { type: 5, data: { flags: 64 } });
  assert.equal(
    await followUpOf(app, rerunFailed),
    `Re-running the failed jobs of octo-org/octo-repo run ${RUN_ID}.`,
  );
  const rerunAll = press(`gh:rerun#${tag}`, { messageId: card.messageId });
  await app.interact(rerunAll);
  assert.equal(await followUpOf(app, rerunAll), `Re-running octo-org/octo-repo run ${RUN_ID}.`);
  assert.deepEqual(app.github.requestsTo("/repos/").map((r) => [r.method, r.path]), [
    ["POST", `/repos/octo-org/octo-repo/actions/runs/${RUN_ID}/rerun-failed-jobs`],
    ["POST", `/repos/octo-org/octo-repo/actions/runs/${RUN_ID}/rerun`],
  ]);
  const token = graceToken(app);
  assert.ok(token?.startsWith("Bearer ghu_"), "called with the linked person's token");
  assert.ok(
    app.github.requestsTo("/repos/").every((r) => r.headers.get("authorization") === token),
  );
});

/** Remembers CARD as a notification of `kind` about a run of octo/app. */
async function rememberRun(
  kv: Kv,
  kind: "run" | "deployment",
  runId: number,
): Promise<void> {
  await bindAcme(kv, "octo");
  await saveMessageRef(kv, { platform: "discord", chatId: CHANNEL, messageId: CARD }, {
    repository: "octo/app",
    kind,
    number: runId,
    ...(kind === "deployment" ? { environment: "production" } : {}),
    routeId: kind === "run" ? "workflow_run" : "deployment_review",
    groupId: "acme",
  });
}

Deno.test("Cancel cancels the run as the presser; GitHub's refusal is said in plain words", async () => {
  await using app = await startDiscordApp();
  await storeRoutes(app.t.kv, [ciRoute("workflow_run", TARGET, [ROLE])]);
  await rememberRun(app.t.kv, "run", 42);
  await linkGrace(app);
  const tag = subjectTag("octo/app", 42);
  const cancel = press(`gh:run-cancel#${tag}`);
  assert.deepEqual(await app.interact(cancel), { type: 5, data: { flags: 64 } });
  assert.equal(await followUpOf(app, cancel), "Cancelling octo/app run 42.");
  const [call] = app.github.requestsTo("/repos/");
  assert.deepEqual([call.method, call.path], ["POST", "/repos/octo/app/actions/runs/42/cancel"]);

  app.github.refusals.set("POST /repos/octo/app/actions/runs/42/cancel", {
    status: 409,
    message: "Cannot cancel a workflow run that is completed.",
  });
  const again = press(`gh:run-cancel#${tag}`);
  await app.interact(again);
  assert.equal(
    await followUpOf(app, again),
    "GitHub says octo/app run 42 changed meanwhile (409): Cannot cancel a workflow run that " +
      "is completed.",
  );
  const other = await app.interact(press(`gh:run-cancel#${subjectTag("octo/app", 43)}`)) as {
    data: { content: string };
  };
  assert.match(other.data.content, /does not name octo\/app run 42/);
  const approveOnRun = await app.interact(press(`gh:approve#${tag}`)) as {
    data: { content: string };
  };
  assert.equal(
    approveOnRun.data.content,
    "This button does not fit this notification; nothing was done.",
  );
});

Deno.test("a deployment waiting for review is posted with Approve and Reject, and remembered with its environment", async () => {
  await using discord = startFakeDiscord();
  await using app = await startDiscordApp({
    GITHUB_WEBHOOK_SECRET: SECRETS.github[0],
    DISCORD_BOT_TOKEN: "test-bot-token",
  }, discord.url);
  await storeRoutes(app.t.kv, [ciRoute("deployment_review", TARGET, [ROLE])]);
  await bindAcme(app.t.kv, "terraform-test-github");
  await using _worker = runWorker(app.t.kv, app.t.config);
  const body = await fixture("deployment_review/requested.payload.json");
  const accepted = await app.t.app.fetch(
    await githubRequest(body, { event: "deployment_review", delivery: "review-1" }),
  );
  assert.equal(accepted.status, 200);
  assert.equal((await settled(app.t.kv, "review-1"))[0].status, "ok");
  const card = discord.received[0];
  const tag = subjectTag("terraform-test-github/sample-app", DEPLOY_RUN);
  assert.deepEqual(labelsOf(card.body), [
    `gh:approve#${tag}`,
    `gh:reject#${tag}`,
    "Open on GitHub",
  ]);
  const embed = (card.body.embeds as { title: string }[])[0];
  assert.equal(
    embed.title,
    "[terraform-test-github/sample-app] Deployment to TST waits for review",
  );
  const remembered = await getMessageRef(app.t.kv, {
    platform: "discord",
    chatId: CHANNEL,
    messageId: card.messageId,
  });
  const { kind, number, environment } = (remembered?.subject ?? {}) as Record<string, unknown>;
  assert.deepEqual([kind, number, environment], ["deployment", DEPLOY_RUN, "TST"]);
});

Deno.test("Approve asks for a comment, approves as the presser and edits the card to say who approved", async () => {
  await using app = await startDiscordApp();
  await storeRoutes(app.t.kv, [ciRoute("deployment_review", TARGET, [ROLE])]);
  await rememberRun(app.t.kv, "deployment", 77);
  await linkGrace(app);
  app.github.pendingDeployments.set(77, [
    { environment: { id: 161171787, name: "production" } },
    { environment: { id: 5, name: "staging" } },
  ]);
  const tag = subjectTag("octo/app", 77);
  const form = await app.interact(press(`gh:approve#${tag}`)) as {
    type: number;
    data: { custom_id: string; title: string };
  };
  assert.equal(form.type, 9);
  assert.equal(form.data.custom_id, `gh:da:${CARD}#${tag}`);
  assert.equal(form.data.title, "Approve the deployment to production");
  assert.equal(app.github.requestsTo("/repos/").length, 0, "nothing approved before the form");

  const sent = submit(form.data.custom_id, { comment: "Ship it" });
  assert.deepEqual(await app.interact(sent), { type: 6 });
  const edit = await followUpOf(app, sent);
  assert.equal(edit, "✅ Deployment to production approved by grace: Ship it");
  const [call] = app.hooks.callsFor(String(sent.token));
  const rows = call.body.components as { components: { url?: string }[] }[];
  assert.equal(rows[0].components[0].url, "https://github.com/octo/app/actions/runs/77");
  const [list, review] = app.github.requestsTo("/repos/");
  assert.deepEqual([list.method, list.path], [
    "GET",
    "/repos/octo/app/actions/runs/77/pending_deployments",
  ]);
  assert.deepEqual([review.method, review.path, review.body], [
    "POST",
    "/repos/octo/app/actions/runs/77/pending_deployments",
    { environment_ids: [161171787], state: "approved", comment: "Ship it" },
  ]);
  assert.equal(review.headers.get("authorization"), list.headers.get("authorization"));
  assert.ok(review.headers.get("authorization")?.startsWith("Bearer ghu_"));
});

Deno.test("Reject: GitHub's refusal is shown to the presser alone and the card stays as it was", async () => {
  await using app = await startDiscordApp();
  await storeRoutes(app.t.kv, [ciRoute("deployment_review", TARGET, [ROLE])]);
  await rememberRun(app.t.kv, "deployment", 78);
  await linkGrace(app);
  app.github.pendingDeployments.set(78, [{ environment: { id: 9, name: "production" } }]);
  app.github.refusals.set("POST /repos/octo/app/actions/runs/78/pending_deployments", {
    status: 422,
    message: "Not a required reviewer of this environment.",
  });
  const tag = subjectTag("octo/app", 78);
  const sent = submit(`gh:dr:${CARD}#${tag}`, { comment: "" });
  assert.deepEqual(await app.interact(sent), { type: 6 });
  await waitFor("the refusal", () => app.hooks.callsFor(String(sent.token)).length > 0);
  const [call] = app.hooks.callsFor(String(sent.token));
  assert.equal(call.method, "POST", "a follow-up message, not an edit of the card");
  assert.equal(call.body.flags, 64);
  assert.equal(
    call.body.content,
    "GitHub refused to reject the deployment of octo/app run 78 (422): Not a required reviewer " +
      "of this environment.",
  );
  const review = app.github.requestsTo("/repos/").at(-1)!;
  assert.deepEqual(review.body, {
    environment_ids: [9],
    state: "rejected",
    comment: "Rejected from the chat.",
  });

  app.github.pendingDeployments.set(78, []);
  const late = submit(`gh:da:${CARD}#${tag}`, { comment: "ok" });
  await app.interact(late);
  await waitFor("the answer", () => app.hooks.callsFor(String(late.token)).length > 0);
  assert.equal(
    app.hooks.callsFor(String(late.token))[0].body.content,
    "Nothing of octo/app run 78 waits for a review for production any more.",
  );
});

Deno.test("/gh issue opens a form with the repository and title, then opens the issue as the invoker", async () => {
  await using app = await startDiscordApp();
  await storeRoutes(app.t.kv, [ciRoute("workflow_run", TARGET)]);
  await bindAcme(app.t.kv, "octo");
  await linkGrace(app);
  const form = await app.interact(
    command("issue", { repo: "octo/app", title: "Flaky deploy" }),
  ) as {
    type: number;
    data: { custom_id: string; components: { component: { custom_id: string; value?: string } }[] };
  };
  assert.equal(form.type, 9);
  assert.equal(form.data.custom_id, "gh:issue");
  assert.deepEqual(
    form.data.components.map((c) => [c.component.custom_id, c.component.value]),
    [["repo", "octo/app"], ["title", "Flaky deploy"], ["body", undefined]],
  );
  const sent = submit("gh:issue", {
    repo: "octo/app",
    title: "Flaky deploy",
    body: "The deploy job times out.",
  });
  assert.deepEqual(await app.interact(sent), { type: 5, data: { flags: 64 } });
  assert.match(
    await followUpOf(app, sent),
    /^Opened octo\/app#\d+: https:\/\/github\.com\/octo\/app\/issues\/\d+$/,
  );
  const [call] = app.github.requestsTo("/repos/");
  assert.deepEqual([call.method, call.path, call.body], [
    "POST",
    "/repos/octo/app/issues",
    { title: "Flaky deploy", body: "The deploy job times out." },
  ]);

  const elsewhere = await app.interact(command("issue", { repo: "other/app", title: "x" })) as {
    data: { content: string };
  };
  assert.match(elsewhere.data.content, /^other\/app is not in a repository of the groups posting/);
  const badName = await app.interact(command("issue", { repo: "not a repo", title: "x" })) as {
    data: { content: string };
  };
  assert.equal(badName.data.content, "Name the repository as owner/repo.");
  assert.equal(app.github.requestsTo("/repos/").length, 1, "refused commands reached nobody");
});

for (
  const [state, line] of [
    ["success", "Deployed to TST ✓ at 2026-11-27 09:30 UTC"],
    ["failure", "Deployment to TST failed at 2026-11-27 09:30 UTC"],
  ] as const
) {
  Deno.test(`after approval, a deployment status (${state}) edits the review card with who approved and the outcome`, async () => {
    await using discord = startFakeDiscord();
    await using app = await startDiscordApp({
      GITHUB_WEBHOOK_SECRET: SECRETS.github[0],
      DISCORD_BOT_TOKEN: "test-bot-token",
    }, discord.url);
    await storeRoutes(app.t.kv, [
      ciRoute("deployment_review", TARGET, [ROLE]),
      ciRoute("deployment_status", TARGET, [ROLE]),
    ]);
    await bindAcme(app.t.kv, "terraform-test-github");
    await linkGrace(app);
    await using _worker = runWorker(app.t.kv, app.t.config);
    const review = await fixture("deployment_review/requested.payload.json");
    await app.t.app.fetch(
      await githubRequest(review, { event: "deployment_review", delivery: "review-2" }),
    );
    assert.equal((await settled(app.t.kv, "review-2"))[0].status, "ok");
    const card = discord.received[0];
    const tag = subjectTag("terraform-test-github/sample-app", DEPLOY_RUN);
    app.github.pendingDeployments.set(DEPLOY_RUN, [{ environment: { id: 9, name: "TST" } }]);
    const approve = submit(`gh:da:${card.messageId}#${tag}`, { comment: "" });
    await app.interact(approve);
    assert.match(String(await followUpOf(app, approve)), /approved by grace/);

    const accepted = await app.t.app.fetch(
      await githubRequest(await deploymentStatusOf(state), {
        event: "deployment_status",
        delivery: `status-${state}`,
      }),
    );
    assert.equal(accepted.status, 200);
    assert.equal((await settled(app.t.kv, `status-${state}`))[0].status, "ok");
    const edit = discord.edits.find((e) => e.messageId === card.messageId);
    assert.ok(edit, "the review card is edited");
    assert.equal(edit.body.content, `✅ Deployment to TST approved by grace.\n${line}`);
    const embed = (edit.body.embeds as { title: string }[])[0];
    assert.equal(
      embed.title,
      "[terraform-test-github/sample-app] Deployment to TST waits for review",
    );
    assert.deepEqual(labelsOf(edit.body), ["Open on GitHub"], "the buttons give way to the link");
  });
}
