/**
 * The chat-ops core shared by Discord and Telegram: refs, reactions, actions as the linked
 * user against the fake GitHub, subscribe/unsubscribe, and message tracking.
 */
import assert from "node:assert/strict";
import { actAsLinkedUser, parseMergeMethod } from "../../lib/chatops/act.ts";
import { parseReaction } from "../../lib/chatops/reactions.ts";
import { parseRef, refText } from "../../lib/format/issue_ref.ts";
import { subscribeChat, unsubscribeChat } from "../../lib/chatops/subscribe.ts";
import { subjectOfPayload } from "../../lib/format/subject.ts";
import { sentMessageRef } from "../../lib/delivery/tracking.ts";
import { createAdapters } from "../../lib/delivery/adapters.ts";
import { getAllowedTargets } from "../../lib/store/config/allowed_targets.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import {
  getMessageRef,
  recentMessageRefs,
  saveMessageRef,
} from "../../lib/store/delivery/message_refs.ts";
import type { SendLog } from "../../lib/store/delivery/send_logs.ts";
import { saveToken } from "../../lib/store/auth/tokens.ts";
import { utf8 } from "../../lib/encoding.ts";
import { ALPHA, BETA, PEOPLE } from "../_admin_helpers.ts";
import { captureLog, testConfig } from "../_helpers.ts";
import { type FakeGitHub, githubEnv, startFakeGitHub } from "../fake_github.ts";
import { openTestKv } from "../../testing/test_store.ts";

const GRACE = { id: 7, login: "grace" };
const HOUR = 3_600_000;
const REF = { owner: "octo-org", repo: "switchyard", number: 12 };

Deno.test("parseRef: short form and GitHub addresses", () => {
  assert.deepEqual(parseRef("octo-org/switchyard#12"), { ok: true, ref: REF });
  assert.deepEqual(parseRef(" https://github.com/octo-org/switchyard/pull/12/files "), {
    ok: true,
    ref: { ...REF, kind: "pull" },
  });
  assert.deepEqual(parseRef("https://github.com/octo-org/switchyard/issues/12#issuecomment-1"), {
    ok: true,
    ref: { ...REF, kind: "issue" },
  });
  assert.deepEqual(parseRef("https://www.github.com/o/r.js/pulls/3"), {
    ok: true,
    ref: { owner: "o", repo: "r.js", number: 3, kind: "pull" },
  });
  assert.equal(refText(REF), "octo-org/switchyard#12");
});

Deno.test("parseRef: refuses bad names, numbers, hosts and oversized input with clear words", () => {
  const cases: [unknown, RegExp][] = [
    ["", /owner\/repo#123/],
    [42, /owner\/repo#123/],
    ["octo/switchyard", /owner\/repo#123/],
    ["-bad/repo#1", /not a GitHub account name/],
    ["o/..#1", /not a repository name/],
    ["o/r#0", /not a pull request or issue number/],
    ["o/r#99999999999", /owner\/repo#123/],
    ["o/r#9999999999", /not a pull request or issue number/],
    ["https://evil.example/o/r/pull/1", /github\.com/],
    ["https://github.com:8443/o/r/pull/1", /github\.com/],
    ["https://github.com/o/r/commit/abc", /not a pull request or issue/],
    ["javascript:alert(1)", /owner\/repo#123/],
    [`o/${"r".repeat(400)}#1`, /too long/],
  ];
  for (const [input, error] of cases) {
    const result = parseRef(input);
    assert.equal(result.ok, false, String(input));
    if (!result.ok) assert.match(result.error, error, String(input));
  }
});

Deno.test("parseReaction and parseMergeMethod read names, aliases and emoji", () => {
  assert.equal(parseReaction("+1"), "+1");
  assert.equal(parseReaction("👍"), "+1");
  assert.equal(parseReaction(":tada:"), "hooray");
  assert.equal(parseReaction("Rocket"), "rocket");
  assert.equal(parseReaction("❤️"), "heart");
  assert.equal(parseReaction("poop"), null);
  assert.equal(parseReaction("x".repeat(100)), null);
  assert.equal(parseMergeMethod("Squash"), "squash");
  assert.equal(parseMergeMethod("fast-forward"), null);
});

async function linkedDeps(fake: FakeGitHub) {
  const kv = await openTestKv();
  const config = testConfig(githubEnv(fake));
  const pair = fake.issueTokens(GRACE);
  await saveToken(kv, {
    userId: "7",
    login: "grace",
    accessToken: pair.accessToken,
    expiresAt: Date.now() + 8 * HOUR,
    refreshToken: pair.refreshToken,
    refreshTokenExpiresAt: Date.now() + 4000 * HOUR,
  }, { encryptionKey: config.tokenEncryptionKey });
  return { kv, config, log: captureLog().log, accessToken: pair.accessToken };
}

Deno.test("actAsLinkedUser: each action reaches GitHub as the linked user", async () => {
  await using fake = startFakeGitHub();
  const deps = await linkedDeps(fake);
  await using _kv = deps.kv;
  const comment = await actAsLinkedUser(deps, "7", REF, { kind: "comment", body: " Looks good " });
  assert.equal(comment.ok, true);
  assert.match(comment.text, /^Commented on octo-org\/switchyard#12: https:\/\/github\.com\//);
  assert.deepEqual(
    await actAsLinkedUser(deps, "7", REF, { kind: "merge", method: "squash" }),
    { ok: true, text: "Merged octo-org/switchyard#12 (squash)." },
  );
  assert.deepEqual(await actAsLinkedUser(deps, "7", REF, { kind: "close" }), {
    ok: true,
    text: "Closed octo-org/switchyard#12.",
  });
  assert.deepEqual(await actAsLinkedUser(deps, "7", REF, { kind: "reopen" }), {
    ok: true,
    text: "Reopened octo-org/switchyard#12.",
  });
  assert.deepEqual(await actAsLinkedUser(deps, "7", REF, { kind: "react", reaction: "rocket" }), {
    ok: true,
    text: "Reacted 🚀 to octo-org/switchyard#12.",
  });
  const calls = fake.requestsTo("/repos/").map((r) => [r.method, r.path, r.body]);
  assert.deepEqual(calls, [
    ["POST", "/repos/octo-org/switchyard/issues/12/comments", { body: "Looks good" }],
    ["PUT", "/repos/octo-org/switchyard/pulls/12/merge", { merge_method: "squash" }],
    ["PATCH", "/repos/octo-org/switchyard/issues/12", { state: "closed" }],
    ["PATCH", "/repos/octo-org/switchyard/issues/12", { state: "open" }],
    ["POST", "/repos/octo-org/switchyard/issues/12/reactions", { content: "rocket" }],
  ]);
  for (const call of fake.requestsTo("/repos/")) {
    assert.equal(call.headers.get("authorization"), `Bearer ${deps.accessToken}`);
  }
});

Deno.test("actAsLinkedUser: unlinked, GitHub refusals and GitHub unreachable in plain words", async () => {
  await using fake = startFakeGitHub();
  const deps = await linkedDeps(fake);
  await using _kv = deps.kv;
  assert.deepEqual(await actAsLinkedUser(deps, null, REF, { kind: "close" }), {
    ok: false,
    text: "Not linked: run /gh link first to link your GitHub account.",
  });
  assert.match(
    (await actAsLinkedUser(deps, null, REF, { kind: "close" }, { linkCommand: "/gh login" }))
      .text,
    /run \/gh login first/,
  );
  fake.refusals.set("PUT /repos/octo-org/switchyard/pulls/12/merge", {
    status: 403,
    message: "Resource not accessible by integration",
  });
  assert.deepEqual(await actAsLinkedUser(deps, "7", REF, { kind: "merge" }), {
    ok: false,
    text:
      "GitHub says you may not merge into this repository (403): Resource not accessible by integration.",
  });
  fake.refusals.set("PUT /repos/octo-org/switchyard/pulls/12/merge", {
    status: 405,
    message: "Pull Request is not mergeable",
  });
  assert.match(
    (await actAsLinkedUser(deps, "7", REF, { kind: "merge" })).text,
    /cannot be merged \(405\): Pull Request is not mergeable/,
  );
  fake.refusals.set("PATCH /repos/octo-org/switchyard/issues/12", {
    status: 404,
    message: "Not Found",
  });
  assert.match((await actAsLinkedUser(deps, "7", REF, { kind: "close" })).text, /cannot find/);
  assert.match(
    (await actAsLinkedUser(deps, "8", REF, { kind: "close" })).text,
    /sign-in has expired/,
  );
  assert.deepEqual(await actAsLinkedUser(deps, "7", REF, { kind: "comment", body: "  " }), {
    ok: false,
    text: "The comment is empty.",
  });
  const offline = {
    ...deps,
    config: testConfig(githubEnv(fake, { GITHUB_API_URL: "http://127.0.0.1:9" })),
  };
  assert.deepEqual(await actAsLinkedUser(offline, "7", REF, { kind: "close" }), {
    ok: false,
    text: "GitHub could not be reached; try again later.",
  });
});

Deno.test("subscribe and unsubscribe: owners and admins only, audited", async () => {
  await using kv = await openTestKv();
  await putGroup(kv, ALPHA);
  await putGroup(kv, BETA);
  const channel = { platform: "discord" as const, channelId: "700" };
  const viewer = await subscribeChat(kv, PEOPLE.viewer, "alpha", channel);
  assert.equal(viewer.ok, false);
  assert.match(viewer.text, /owner or admin/);
  assert.deepEqual(await subscribeChat(kv, PEOPLE.admin, "Not An Id", channel), {
    ok: false,
    text: "Give a group id: 1-64 lower-case letters, digits, _ or -.",
  });
  const ok = await subscribeChat(kv, PEOPLE.admin, "alpha", channel);
  assert.equal(ok.ok, true);
  assert.match(ok.text, /Group alpha may now post into this channel/);
  const taken = await subscribeChat(kv, PEOPLE.otherOwner, "beta", channel);
  assert.equal(taken.ok, false);
  assert.match(taken.text, /already allowed for another group/);
  assert.equal((await getAllowedTargets(kv, "alpha")).targets.length, 1);

  const refused = await unsubscribeChat(kv, PEOPLE.viewer, "alpha", channel);
  assert.equal(refused.ok, false);
  const removed = await unsubscribeChat(kv, PEOPLE.owner, "alpha", channel);
  assert.equal(removed.ok, true);
  assert.match(removed.text, /no longer posts into this channel/);
  assert.equal((await getAllowedTargets(kv, "alpha")).targets.length, 0);
  const again = await unsubscribeChat(kv, PEOPLE.owner, "alpha", channel);
  assert.match(again.text, /was not subscribed/);
  const actions = (await listAuditEntries(kv, { groupId: "alpha" })).map((e) => e.action).sort();
  assert.deepEqual(actions, ["targets.claim", "targets.replace"]);
});

Deno.test("message refs: saved with the subject, listed newest first, bounded ids", async () => {
  await using kv = await openTestKv();
  const subject = {
    repository: "o/r",
    kind: "pull" as const,
    number: 5,
    routeId: "prs",
    groupId: "alpha",
  };
  for (const messageId of ["9", "10", "11"]) {
    await saveMessageRef(kv, { platform: "telegram", chatId: "-100", messageId }, {
      ...subject,
      number: Number(messageId),
    });
  }
  const ref = await getMessageRef(kv, { platform: "telegram", chatId: "-100", messageId: "10" });
  assert.equal(ref?.subject.number, 10);
  assert.equal(
    await getMessageRef(kv, { platform: "discord", chatId: "-100", messageId: "10" }),
    null,
  );
  const recent = await recentMessageRefs(kv, "telegram", "-100", 2);
  assert.deepEqual(recent.map((r) => r.messageId), ["11", "10"]);
  await saveMessageRef(
    kv,
    { platform: "discord", chatId: "1", messageId: "x".repeat(65) },
    subject,
  );
  assert.equal(
    await getMessageRef(kv, { platform: "discord", chatId: "1", messageId: "x".repeat(65) }),
    null,
  );
});

Deno.test("tracking: a sent pull request notification is recorded with its place and subject", async () => {
  await using kv = await openTestKv();
  const payload = {
    action: "opened",
    pull_request: { number: 42, title: "Add it" },
    repository: { full_name: "octo-org/switchyard" },
  };
  assert.deepEqual(subjectOfPayload(payload), {
    repository: "octo-org/switchyard",
    kind: "pull",
    number: 42,
  });
  assert.deepEqual(
    subjectOfPayload({ issue: { number: 3, pull_request: {} }, repository: { full_name: "a/b" } }),
    { repository: "a/b", kind: "pull", number: 3 },
  );
  assert.equal(subjectOfPayload({ issue: { number: -1 }, repository: { full_name: "a/b" } }), null);
  const saved = await saveEvent(kv, {
    provider: "github",
    kind: "pull_request",
    action: "opened",
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify(payload)),
  });
  assert.equal(saved.status, "accepted");
  const eventId = saved.status === "accepted" ? saved.eventId : "";
  const log: SendLog = {
    id: `${eventId}-1`,
    deliveryId: eventId,
    eventId,
    event: "pull_request",
    provider: "github",
    groupId: "alpha",
    routeId: "prs",
    platform: "discord",
    target: { platform: "discord", channelId: "700", threadId: "701" },
    status: "ok",
    attempts: 1,
    messageId: "9001",
    createdAt: 1,
    updatedAt: 1,
  };
  const adapters = createAdapters(testConfig());
  const adapterOf = (platform: string) => adapters.get(platform)!;
  assert.equal(
    await sentMessageRef(kv, { ...log, status: "failed" }, adapterOf("discord")),
    null,
  );
  await putGroup(kv, { ...ALPHA, owners: ["octo-org"] });
  const discord = await sentMessageRef(kv, log, adapterOf("discord"));
  assert.deepEqual(discord?.place, { platform: "discord", chatId: "701", messageId: "9001" });
  const telegram = await sentMessageRef(kv, {
    ...log,
    platform: "telegram",
    target: { platform: "telegram", chatId: "-100333", topicId: 9 },
    messageId: "42",
  }, adapterOf("telegram"));
  assert.deepEqual(telegram?.place, { platform: "telegram", chatId: "-100333", messageId: "42" });
  assert.equal(telegram?.subject.number, 42);
  assert.deepEqual(discord?.subject, {
    repository: "octo-org/switchyard",
    kind: "pull",
    number: 42,
    routeId: "prs",
    groupId: "alpha",
    groupInternalId: "alpha",
  });
});
