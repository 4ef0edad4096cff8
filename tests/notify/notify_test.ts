/**
 * Personal notifications (docs/personal.md): each trigger reaches the linked person's
 * Telegram private chat and Discord DM once, whatever number of groups received the event;
 * never their own actions; never a repository their token cannot read; a dead token stops
 * them and tells the person once; several within the window make one digest; quiet hours hold
 * them until they end.
 */
import assert from "node:assert/strict";
import { updateNotifySettings } from "../../lib/store/notify/notify_settings.ts";
import { getMessageRef } from "../../lib/store/delivery/message_refs.ts";
import { putJob } from "../../lib/store/delivery/jobs.ts";
import { quietEndsAt } from "../../lib/notify/quiet.ts";
import { listHeld, readInbox } from "../../lib/store/notify/notify_outbox.ts";
import { BUTTONS_ENV } from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";
import {
  AUTHOR,
  link,
  OCTO,
  payload,
  type Person,
  pull,
  REPO,
  startNotify,
} from "../_notify_helpers.ts";
import type { NotifyKind } from "../../lib/store/notify/notify_settings.ts";
import type { Kv } from "../../lib/store/backend/types.ts";

async function turnOn(kv: Kv, userId: number, kind: NotifyKind) {
  await updateNotifySettings(
    kv,
    String(userId),
    (s) => ({ ...s, kinds: { ...s.kinds, [kind]: true } }),
  );
}

const REVIEWER = { login: "reviewer", id: 77 };

Deno.test("a review request from a linked person: one message on each platform across two groups, telling how to change it", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv);
  await link(s, OCTO);
  await s.accept(
    "pull_request",
    payload("review_requested", AUTHOR, {
      pull_request: pull(AUTHOR),
      requested_reviewer: { login: "OctoCat", id: OCTO.id },
    }),
  );
  await s.idle();
  const inbox = s.inbox(OCTO);
  assert.equal(inbox.telegram.length, 1);
  assert.equal(inbox.discord.length, 1);
  assert.match(inbox.telegram[0], /Review requested from you/);
  assert.match(inbox.telegram[0], /Add widgets #7/);
  assert.match(inbox.telegram[0], /\/gh notify/);
  assert.match(inbox.discord[0], /Review requested from you/);
  assert.deepEqual(s.discord.dmsOpened, [OCTO.discord]);
  // only the private chats got it: the groups' routes fire on pushes only
  assert.equal(s.telegram.received.length, 1);
});

Deno.test("a review request from a team the person belongs to (asked of GitHub with their token) reaches them once", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv);
  await link(s, OCTO);
  const { putGroup } = await import("../../lib/store/config/groups.ts");
  await putGroup(kv, {
    id: "alpha",
    name: "alpha",
    owners: ["acme"],
    members: [
      { userId: "1", login: "owner", role: "owner" },
      { userId: String(OCTO.id), login: OCTO.login, role: "viewer" },
    ],
  });
  s.github.teams.set("acme/core", new Set(["octocat"]));
  await s.accept(
    "pull_request",
    payload("review_requested", AUTHOR, {
      pull_request: pull(AUTHOR),
      requested_team: { slug: "core", name: "Core" },
    }),
  );
  await s.idle();
  const inbox = s.inbox(OCTO);
  assert.equal(inbox.telegram.length, 1);
  assert.match(inbox.telegram[0], /Review requested from your team core/);
  // the group's owner has no token; Octocat's own reads the team it belongs to
  const asked = s.github.requestsTo("/orgs/acme/teams/core/members");
  assert.equal(asked.length, 1);
  assert.equal(asked[0].headers.get("authorization"), `Bearer ${s.tokens.get(OCTO.id)}`);
});

Deno.test("a review request to a team reaches each linked member of it outside the group, once, where their token reads the repository", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv, { windowMs: 50 });
  const owner: Person = {
    id: 1,
    login: "owner",
    telegram: "555555",
    discord: "523456789012345678",
  };
  const lurker: Person = {
    id: 66,
    login: "lurker",
    telegram: "666666",
    discord: "623456789012345678",
  };
  await link(s, owner);
  await link(s, OCTO);
  await link(s, lurker, { readable: [] });
  const { putGroup } = await import("../../lib/store/config/groups.ts");
  await putGroup(kv, {
    id: "alpha",
    name: "alpha",
    owners: ["acme"],
    members: [{ userId: String(owner.id), login: owner.login, role: "owner" }],
  });
  // the owner is an active member of acme, not of the team; Octocat belongs to no group
  s.github.memberships.set(owner.id, new Map([["acme", { role: "member", state: "active" }]]));
  s.github.teams.set("acme/core", new Set(["octocat", "lurker", "nobody-linked"]));
  const requestTeam = async (number: number) => {
    await s.accept(
      "pull_request",
      payload("review_requested", AUTHOR, {
        pull_request: pull(AUTHOR, number),
        requested_team: { slug: "core", name: "Core" },
      }),
    );
    await s.idle();
  };
  await requestTeam(7);
  const inbox = s.inbox(OCTO);
  assert.equal(inbox.telegram.length, 1, inbox.telegram.join("\n---\n"));
  assert.equal(inbox.discord.length, 1);
  assert.match(inbox.telegram[0], /Review requested from your team core/);
  assert.deepEqual(s.inbox(lurker), { telegram: [], discord: [] }, "cannot read the repository");
  assert.deepEqual(s.inbox(owner), { telegram: [], discord: [] }, "not in the team");
  // read with the owner's token, then cached for the next request
  await requestTeam(8);
  assert.equal(s.inbox(OCTO).telegram.length, 2);
  const asked = s.github.requestsTo("/orgs/acme/teams/core/members");
  assert.equal(asked.length, 1);
  assert.equal(asked[0].headers.get("authorization"), `Bearer ${s.tokens.get(owner.id)}`);
});

Deno.test("mentions in a comment reach the person; their own comment mentioning themselves does not", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv);
  await link(s, OCTO);
  const issue = {
    number: 3,
    title: "Crash",
    html_url: `https://github.com/${REPO}/issues/3`,
    user: { login: "x", id: 9 },
    state: "open",
  };
  await s.accept(
    "issue_comment",
    payload("created", { login: "x", id: 9 }, {
      issue,
      comment: {
        body: "ping @octocat, not `@hubot` or mail@octocat.io",
        user: { login: "x", id: 9 },
      },
    }),
  );
  await s.accept(
    "issue_comment",
    payload("created", OCTO, {
      issue,
      comment: { body: "note to self @octocat", user: { login: OCTO.login, id: OCTO.id } },
    }),
  );
  await s.idle();
  const inbox = s.inbox(OCTO);
  assert.equal(inbox.telegram.length, 1);
  assert.match(inbox.telegram[0], /You were mentioned/);
  assert.equal(inbox.discord.length, 1);
});

Deno.test("their own pull request approved, then merged: one message each once switched on; nothing while off", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv, { windowMs: 50 });
  await link(s, AUTHOR);
  await s.accept(
    "pull_request_review",
    payload("submitted", REVIEWER, {
      pull_request: pull(AUTHOR),
      review: { state: "approved", body: "", user: REVIEWER },
    }),
  );
  await s.idle();
  assert.equal(s.inbox(AUTHOR).telegram.length, 0, "off by default");
  await turnOn(kv, AUTHOR.id, "my_pull_requests");
  await s.accept(
    "pull_request_review",
    payload("submitted", REVIEWER, {
      pull_request: pull(AUTHOR),
      review: { state: "approved", body: "", user: REVIEWER },
    }),
  );
  await s.idle();
  await s.accept(
    "pull_request",
    payload("closed", REVIEWER, {
      pull_request: { ...pull(AUTHOR), state: "closed", merged: true },
    }),
  );
  await s.idle();
  const inbox = s.inbox(AUTHOR).telegram;
  assert.equal(inbox.length, 2);
  assert.match(inbox[0], /Your pull request was approved/);
  assert.match(inbox[1], /Your pull request was merged/);
});

Deno.test("a failed workflow on their pull request's head, and an assignment, once switched on", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv, { windowMs: 50 });
  await link(s, AUTHOR);
  await turnOn(kv, AUTHOR.id, "failed_checks");
  await turnOn(kv, AUTHOR.id, "assigned");
  const sha = "b".repeat(40);
  await s.accept("pull_request", payload("opened", AUTHOR, { pull_request: pull(AUTHOR, 8, sha) }));
  await s.idle();
  await s.accept(
    "workflow_run",
    payload("completed", { login: "github-actions[bot]", id: 41898282 }, {
      workflow_run: {
        id: 99,
        name: "CI",
        head_sha: sha,
        conclusion: "failure",
        status: "completed",
        html_url: `https://github.com/${REPO}/actions/runs/99`,
        pull_requests: [{ number: 8 }],
        head_branch: "feature",
      },
    }),
  );
  await s.idle();
  await s.accept(
    "issues",
    payload("assigned", REVIEWER, {
      issue: {
        number: 4,
        title: "Bug",
        html_url: `https://github.com/${REPO}/issues/4`,
        user: REVIEWER,
        state: "open",
      },
      assignee: { login: AUTHOR.login, id: AUTHOR.id },
    }),
  );
  await s.idle();
  const inbox = s.inbox(AUTHOR).telegram;
  assert.equal(inbox.length, 2, inbox.join("\n---\n"));
  assert.match(inbox[0], /A workflow failed on your pull request/);
  assert.match(inbox[1], /Assigned to you/);
});

Deno.test("a failed workflow their own push started still reaches the pull request's author", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv, { windowMs: 50 });
  await link(s, AUTHOR);
  await turnOn(kv, AUTHOR.id, "failed_checks");
  const sha = "c".repeat(40);
  await s.accept("pull_request", payload("opened", AUTHOR, { pull_request: pull(AUTHOR, 9, sha) }));
  await s.idle();
  await s.accept(
    "workflow_run",
    payload("completed", AUTHOR, {
      workflow_run: {
        id: 100,
        name: "CI",
        head_sha: sha,
        conclusion: "failure",
        status: "completed",
        html_url: `https://github.com/${REPO}/actions/runs/100`,
        pull_requests: [{ number: 9 }],
        head_branch: "feature",
      },
    }),
  );
  await s.idle();
  const inbox = s.inbox(AUTHOR).telegram;
  assert.equal(inbox.length, 1, inbox.join("\n---\n"));
  assert.match(inbox[0], /A workflow failed on your pull request/);
});

Deno.test("no message about a repository the person's token cannot read (GitHub answers 404)", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv);
  await link(s, OCTO, { readable: [] });
  await s.accept(
    "pull_request",
    payload("review_requested", AUTHOR, {
      pull_request: pull(AUTHOR),
      requested_reviewer: { login: OCTO.login, id: OCTO.id },
    }),
  );
  await s.idle();
  assert.deepEqual(s.inbox(OCTO), { telegram: [], discord: [] });
  assert.equal(s.github.requestsTo(`/repos/${REPO}`).length, 1);
});

Deno.test("a revoked token (GitHub answers 401) stops notifications and tells the person once", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv, { windowMs: 50 });
  await link(s, OCTO, { refreshable: false });
  s.github.expireAccessToken(s.tokens.get(OCTO.id)!);
  for (const number of [7, 8]) {
    await s.accept(
      "pull_request",
      payload("review_requested", AUTHOR, {
        pull_request: pull(AUTHOR, number),
        requested_reviewer: { login: OCTO.login, id: OCTO.id },
      }),
    );
    await s.idle();
  }
  const inbox = s.inbox(OCTO);
  assert.equal(inbox.telegram.length + inbox.discord.length, 1);
  const notice = inbox.telegram[0] ?? inbox.discord[0];
  assert.match(notice, /no longer works/);
  assert.match(notice, /\/gh login/);
  assert.doesNotMatch(notice, /Add widgets/);
});

/** An issue opened by the author mentioning Octocat. */
function mentioningIssue(number: number) {
  return payload("opened", AUTHOR, {
    issue: {
      number,
      title: `Issue ${number}`,
      html_url: `https://github.com/${REPO}/issues/${number}`,
      user: AUTHOR,
      state: "open",
      body: "cc @octocat",
    },
  });
}

Deno.test("a burst of five notifications in quick succession: exactly one private message listing all five, on each platform", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv, { windowMs: 2_000, gatherMs: 3_000 });
  await link(s, OCTO);
  for (let number = 1; number <= 5; number++) await s.accept("issues", mentioningIssue(number));
  await s.idle();
  const inbox = s.inbox(OCTO);
  assert.equal(inbox.telegram.length, 1, inbox.telegram.join("\n---\n"));
  assert.equal(inbox.discord.length, 1, inbox.discord.join("\n---\n"));
  for (const message of [inbox.telegram[0], inbox.discord[0]]) {
    assert.match(message, /5 notifications/);
    for (let number = 1; number <= 5; number++) {
      assert.match(message, new RegExp(`Issue ${number}\\b`));
    }
  }
});

Deno.test("one notification alone goes as the normal single message when the gather window ends", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv, { gatherMs: 300 });
  await link(s, OCTO);
  await s.accept("issues", mentioningIssue(1));
  await s.idle();
  const inbox = s.inbox(OCTO);
  assert.equal(inbox.telegram.length, 1);
  assert.equal(inbox.discord.length, 1);
  assert.match(inbox.telegram[0], /You were mentioned/);
  assert.doesNotMatch(inbox.telegram[0], /\d notifications/);
});

Deno.test("quiet hours hold notifications and send them as one digest when they end", async () => {
  await using kv = await openTestKv();
  // the jobs' clock reads 06:59:58 UTC, two seconds before the quiet hours end
  const real = Date.now();
  const day = new Date(real);
  const target = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 6, 59, 58);
  const offset = target - real;
  await using s = await startNotify(kv, { now: () => Date.now() + offset });
  await link(s, OCTO);
  await updateNotifySettings(kv, String(OCTO.id), (settings) => ({
    ...settings,
    quietHours: { timeZone: "UTC", start: "22:00", end: "07:00", weekends: false },
  }));
  for (const number of [1, 2]) {
    await s.accept(
      "issues",
      payload("opened", AUTHOR, {
        issue: {
          number,
          title: `Quiet ${number}`,
          html_url: `https://github.com/${REPO}/issues/${number}`,
          user: AUTHOR,
          state: "open",
          body: "@octocat",
        },
      }),
    );
  }
  await s.onlyFlushesLeft();
  for (
    const [platform, chatUserId] of [["telegram", OCTO.telegram], [
      "discord",
      OCTO.discord,
    ]] as const
  ) {
    assert.equal((await listHeld(kv, platform, chatUserId)).length, 2, `${platform}: both held`);
    const { state } = await readInbox(kv, platform, chatUserId);
    assert.equal(state.flushDueAt, target + 2_000, `${platform}: the flush waits for 07:00`);
  }
  assert.deepEqual(s.inbox(OCTO), { telegram: [], discord: [] }, "held during quiet hours");
  await s.idle();
  const inbox = s.inbox(OCTO);
  assert.equal(inbox.telegram.length, 1);
  assert.match(inbox.telegram[0], /2 notifications/);
  assert.match(inbox.telegram[0], /Quiet 1/);
  assert.match(inbox.telegram[0], /Quiet 2/);
  assert.equal(inbox.discord.length, 1);
});

Deno.test("a single personal message about a pull request carries the channel card's buttons and is recorded for presses", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv, { env: BUTTONS_ENV });
  await link(s, OCTO);
  await s.accept(
    "pull_request",
    payload("review_requested", AUTHOR, {
      pull_request: pull(AUTHOR),
      requested_reviewer: { login: OCTO.login, id: OCTO.id },
    }),
  );
  await s.idle();
  const sent = s.telegram.received.find((m) => m.chat === OCTO.telegram)!;
  const markup = sent.body.reply_markup as {
    inline_keyboard: { callback_data?: string; url?: string }[][];
  };
  const buttons = markup.inline_keyboard.flat();
  assert.ok(buttons.some((b) => b.callback_data?.startsWith("gh:merge")), JSON.stringify(buttons));
  assert.ok(buttons.some((b) => b.url === `https://github.com/${REPO}/pull/7`));
  const ref = await getMessageRef(kv, {
    platform: "telegram",
    chatId: OCTO.telegram,
    messageId: sent.messageId,
  });
  assert.equal(ref?.subject.groupId, "alpha");
  assert.equal(ref?.subject.repository, REPO);
  const dm = s.discord.received.find((m) => m.chat === `9${OCTO.discord}`)!;
  assert.ok(Array.isArray(dm.body.components) && dm.body.components.length > 0);
});

Deno.test("quiet hours: the end of the hours, of a weekend followed by the hours, and none outside", () => {
  const quiet = { timeZone: "Europe/Berlin", start: "22:00", end: "07:00", weekends: true };
  // Saturday 2026-03-28 10:00 in Berlin (09:00 UTC): the weekend, then Monday's early hours
  const saturday = Date.UTC(2026, 2, 28, 9, 0);
  assert.equal(quietEndsAt(quiet, saturday), Date.UTC(2026, 2, 30, 5, 0)); // Monday 07:00 CEST
  // Tuesday 23:30 Berlin: ends Wednesday 07:00
  const tuesday = Date.UTC(2026, 2, 31, 21, 30);
  assert.equal(quietEndsAt(quiet, tuesday), Date.UTC(2026, 3, 1, 5, 0));
  assert.equal(quietEndsAt(quiet, Date.UTC(2026, 3, 1, 10, 0)), null);
  assert.equal(quietEndsAt(null, saturday), null);
});

/**
 * `kv` whose commits that remove a held notification fail (as if the state kept changing) the
 * first `times` times for each platform: a flush that sent cannot settle, and its job runs again.
 */
function settlesFail(kv: Kv, times: number): Kv {
  const failures = new Map<string, number>();
  const wrapOp = (op: object) => {
    let platform: string | null = null;
    const proxy: object = new Proxy(op, {
      get(target, name) {
        const value = Reflect.get(target, name);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const key = args[0] as unknown[];
          if (name === "delete" && key[0] === "notify_held") platform = String(key[1]);
          if (name === "commit" && platform && (failures.get(platform) ?? 0) < times) {
            failures.set(platform, (failures.get(platform) ?? 0) + 1);
            return Promise.resolve({ ok: false });
          }
          const result = value.apply(target, args);
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  };
  return new Proxy(kv, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== "function") return value;
      return name === "atomic"
        ? () => wrapOp(value.apply(target, []))
        : (...args: unknown[]) => value.apply(target, args);
    },
  });
}

Deno.test("a flush that sent but could not settle runs again without a second message", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(settlesFail(kv, 10));
  await link(s, OCTO);
  await s.accept("issues", mentioningIssue(1));
  await s.idle();
  const inbox = s.inbox(OCTO);
  assert.equal(inbox.telegram.length, 1, inbox.telegram.join("\n---\n"));
  assert.equal(inbox.discord.length, 1, inbox.discord.join("\n---\n"));
  assert.equal((await Array.fromAsync(kv.list({ prefix: ["notify_held"] }))).length, 0);
});

Deno.test("the fan-out job of an event run again (after a crash, or twice at once) queues its personal notifications once", async () => {
  await using kv = await openTestKv();
  await using s = await startNotify(kv);
  await link(s, OCTO);
  const eventId = await s.accept(
    "pull_request",
    payload("review_requested", AUTHOR, {
      pull_request: pull(AUTHOR),
      requested_reviewer: { login: OCTO.login, id: OCTO.id },
    }),
  );
  await putJob(kv, { type: "deliver", eventId }); // a second run while the first is under way
  await s.idle();
  await putJob(kv, { type: "deliver", eventId }); // and one after everything was sent
  await s.idle();
  const inbox = s.inbox(OCTO);
  assert.equal(inbox.telegram.length, 1, inbox.telegram.join("\n---\n"));
  assert.equal(inbox.discord.length, 1, inbox.discord.join("\n---\n"));
});
