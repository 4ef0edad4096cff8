/** The messages the GitHub formatters produce for real webhook payloads. */
import assert from "node:assert/strict";
import { formatEvent } from "../../lib/format/mod.ts";
import { COLORS } from "../../lib/format/colors.ts";
import { PUSH_COMMITS_LISTED } from "../../lib/format/github/push.ts";
import {
  blockText,
  descriptionText,
  eventOf,
  fieldOf,
  fieldText,
  format,
  linksIn,
  type Payload,
} from "../_format_helpers.ts";
import { fixtureJson } from "../_ingest_helpers.ts";

const REPO = "https://github.com/Codertocat/Hello-World";

Deno.test("every message carries the sender as author, the repository footer and the receive time", async () => {
  const message = format("issues", await fixtureJson("issues/opened.payload.json"));
  assert.deepEqual(message.author, {
    name: "Codertocat",
    url: "https://github.com/Codertocat",
    iconUrl: "https://avatars1.githubusercontent.com/u/21031067?v=4",
  });
  assert.deepEqual(message.footer, { repository: "Codertocat/Hello-World", provider: "github" });
  assert.equal(message.timestamp, "2024-05-01T12:00:00.000Z");
});

Deno.test("push: a new branch lists its commits with links", async () => {
  const message = format("push", await fixtureJson("push/with-new-branch.payload.json"));
  assert.equal(message.title, "[Codertocat/Hello-World] Created branch master with 1 commit");
  assert.equal(message.url, `${REPO}/tree/master`);
  assert.equal(message.color, COLORS.green);
  const [commit] = message.description ?? [];
  assert.equal(commit.kind, "line");
  assert.equal(blockText(commit), "6113728 Initial commit — Codertocat");
  assert.deepEqual(linksIn(commit.kind === "line" ? commit.spans : []), [
    `${REPO}/commit/6113728f27ae82c7b1a177c8d03f9e96e0adf246`,
  ]);
});

Deno.test("push: a deleted tag says so in red", async () => {
  const message = format("push", await fixtureJson("push/payload.json"));
  assert.equal(message.title, "[Codertocat/Hello-World] Deleted tag simple-tag");
  assert.equal(message.color, COLORS.red);
  assert.equal(message.description, undefined);
});

async function pushOf(commitCount: number, overrides: Payload = {}): Promise<Payload> {
  const base = await fixtureJson("push/with-new-branch.payload.json");
  const template = (base.commits as Payload[])[0];
  const commits = Array.from({ length: commitCount }, (_, index) => ({
    ...template,
    id: `${index}`.padStart(40, "a"),
    message: `Commit number ${index}\n\nwith a body`,
    url: `${REPO}/commit/${`${index}`.padStart(40, "a")}`,
  }));
  return {
    ...base,
    ref: "refs/heads/main",
    before: "1".repeat(40),
    after: "2".repeat(40),
    created: false,
    compare: `${REPO}/compare/111111111111...222222222222`,
    commits,
    ...overrides,
  };
}

Deno.test("push: commits on an existing branch link the compare view", async () => {
  const message = format("push", await pushOf(2));
  assert.equal(message.title, "[Codertocat/Hello-World] Pushed 2 commits to main");
  assert.equal(message.url, `${REPO}/compare/111111111111...222222222222`);
  assert.equal(message.color, COLORS.blue);
  assert.deepEqual(descriptionText(message).split("\n"), [
    "aaaaaaa Commit number 0 — Codertocat",
    "aaaaaaa Commit number 1 — Codertocat",
  ]);
});

Deno.test("push: a force push is named and shows the rewritten head", async () => {
  const message = format("push", await pushOf(1, { forced: true }));
  assert.equal(message.title, "[Codertocat/Hello-World] Force-pushed 1 commit to main");
  assert.equal(message.color, COLORS.orange);
  assert.match(descriptionText(message), /^Force-pushed: 1111111 → 2222222\n/);
});

Deno.test("push: many commits are listed up to a limit, then summarised with the compare link", async () => {
  const message = format("push", await pushOf(15));
  const blocks = message.description ?? [];
  assert.equal(blocks.length, PUSH_COMMITS_LISTED + 1);
  const last = blocks.at(-1)!;
  assert.equal(blockText(last), `… and ${15 - PUSH_COMMITS_LISTED} more commits`);
  assert.deepEqual(linksIn(last.kind === "line" ? last.spans : []), [message.url]);
});

Deno.test("push: a tag push is named as a tag", async () => {
  const message = format(
    "push",
    await pushOf(0, { ref: "refs/tags/v1.2.0", created: true, before: "0".repeat(40) }),
  );
  assert.equal(message.title, "[Codertocat/Hello-World] Pushed tag v1.2.0");
  assert.equal(message.url, `${REPO}/tree/v1.2.0`);
});

Deno.test("pull_request opened: body quoted, branch, changes, labels, reviewers", async () => {
  const message = format("pull_request", await fixtureJson("pull_request/opened.payload.json"));
  assert.equal(
    message.title,
    "[Codertocat/Hello-World] Pull request opened: #2 Update the README with new information.",
  );
  assert.equal(message.url, `${REPO}/pull/2`);
  assert.equal(message.color, COLORS.green);
  assert.deepEqual(message.description, [{
    kind: "quote",
    text: "This is a pretty simple change that we need to pull into master.",
  }]);
  assert.equal(fieldText(message, "Branch"), "changes → master");
  assert.deepEqual(linksIn(fieldOf(message, "Branch").value), [
    `${REPO}/tree/changes`,
    `${REPO}/tree/master`,
  ]);
  assert.equal(fieldText(message, "Changes"), "+1 −1 in 1 file");
  assert.equal(fieldText(message, "Labels"), "bug");
  assert.equal(fieldText(message, "Reviewers"), "octocat");
  assert.deepEqual(message.mentions, ["octocat"]);
});

Deno.test("pull_request opened with a null body has no description", async () => {
  const message = format(
    "pull_request",
    await fixtureJson("pull_request/opened.with-null-body.json"),
  );
  assert.equal(message.description, undefined);
  assert.equal(message.color, COLORS.green);
});

Deno.test("pull_request closed without merge is red, merged is purple with who merged", async () => {
  const closed = await fixtureJson("pull_request/closed.payload.json");
  const unmerged = format("pull_request", closed);
  assert.match(unmerged.title, /Pull request closed: #2 /);
  assert.equal(unmerged.color, COLORS.red);

  const pullRequest = closed.pull_request as Payload;
  const merged = format("pull_request", {
    ...closed,
    pull_request: { ...pullRequest, merged: true, merged_by: pullRequest.user },
  });
  assert.match(merged.title, /Pull request merged: #2 /);
  assert.equal(merged.color, COLORS.purple);
  assert.equal(descriptionText(merged), "Merged by Codertocat");
});

Deno.test("pull_request reopened, ready_for_review and converted_to_draft", async () => {
  const ready = format(
    "pull_request",
    await fixtureJson("pull_request/ready_for_review.payload.json"),
  );
  assert.match(ready.title, /Pull request ready for review: #2 /);
  assert.equal(ready.color, COLORS.green);
  const draft = format(
    "pull_request",
    await fixtureJson("pull_request/converted_to_draft.payload.json"),
  );
  assert.match(draft.title, /Pull request converted to draft: #2 /);
  assert.equal(draft.color, COLORS.grey);
  const reopened = format("pull_request", {
    ...await fixtureJson("pull_request/opened.payload.json"),
    action: "reopened",
  });
  assert.match(reopened.title, /Pull request reopened: #2 /);
  assert.equal(reopened.color, COLORS.green);
});

Deno.test("pull_request review_requested names the reviewer and mentions them", async () => {
  const message = format(
    "pull_request",
    await fixtureJson("pull_request/review_requested.payload.json"),
  );
  assert.match(message.title, /Pull request review requested: #2 /);
  assert.equal(descriptionText(message), "Reviewer: octocat");
  assert.deepEqual(message.mentions, ["octocat"]);
});

Deno.test("pull_request synchronize shows the head move and the commit count", async () => {
  const message = format(
    "pull_request",
    await fixtureJson("pull_request/synchronize.payload.json"),
  );
  assert.match(message.title, /Pull request updated: #2 /);
  assert.match(descriptionText(message), /^Head moved f95f852 → [0-9a-f]{7}$/);
  assert.equal(fieldText(message, "Commits"), "1");
});

Deno.test("pull_request synchronize without before/after still produces a message", async () => {
  const payload = await fixtureJson("pull_request/synchronize.payload.json");
  delete payload.before;
  delete payload.after;
  const message = format("pull_request", payload);
  assert.match(message.title, /Pull request updated/);
  assert.equal(message.description, undefined);
});

Deno.test("pull_request labeled names the label", async () => {
  const message = format("pull_request", await fixtureJson("pull_request/labeled.payload.json"));
  assert.match(message.title, /Pull request labeled: #2 /);
  assert.equal(descriptionText(message), "Label: bug");
  assert.equal(message.color, COLORS.blue);
});

Deno.test("pull_request_review: state, link and reviewer", async () => {
  const payload = await fixtureJson("pull_request_review/submitted.payload.json");
  const commented = format("pull_request_review", payload);
  assert.equal(
    commented.title,
    "[Codertocat/Hello-World] Pull request reviewed: #2 Update the README with new information.",
  );
  assert.equal(commented.url, `${REPO}/pull/2#pullrequestreview-237895671`);
  assert.equal(commented.color, COLORS.grey);
  const review = payload.review as Payload;
  const approved = format("pull_request_review", {
    ...payload,
    review: { ...review, state: "APPROVED", body: "Looks good" },
  });
  assert.match(approved.title, /Pull request approved: #2 /);
  assert.equal(approved.color, COLORS.green);
  assert.equal(descriptionText(approved), "Looks good");
  const changes = format("pull_request_review", {
    ...payload,
    review: { ...review, state: "changes_requested" },
  });
  assert.match(changes.title, /Changes requested: #2 /);
  assert.equal(changes.color, COLORS.red);
});

Deno.test("pull_request_review_comment: quoted with file and line", async () => {
  const message = format(
    "pull_request_review_comment",
    await fixtureJson("pull_request_review_comment/created.payload.json"),
  );
  assert.match(message.title, /New review comment on #2 Update the README/);
  assert.equal(message.url, `${REPO}/pull/2#discussion_r284312630`);
  assert.equal(descriptionText(message), "Maybe you should use more emoji on this line.");
  assert.equal(fieldText(message, "File"), "README.md:265");
});

Deno.test("issues opened: body, labels, assignees, milestone", async () => {
  const message = format("issues", await fixtureJson("issues/opened.payload.json"));
  assert.equal(
    message.title,
    "[Codertocat/Hello-World] Issue opened: #1 Spelling error in the README file",
  );
  assert.equal(message.url, `${REPO}/issues/1`);
  assert.equal(message.color, COLORS.green);
  assert.match(descriptionText(message), /^It looks like you accidently spelled 'commit'/);
  assert.equal(fieldText(message, "Labels"), "bug");
  assert.equal(fieldText(message, "Assignees"), "Codertocat");
  assert.equal(fieldText(message, "Milestone"), "v1.0");
});

Deno.test("issues closed: completed is purple, not planned is grey", async () => {
  const opened = await fixtureJson("issues/opened.payload.json");
  const issue = opened.issue as Payload;
  const completed = format("issues", {
    ...opened,
    action: "closed",
    issue: { ...issue, state: "closed", state_reason: "completed" },
  });
  assert.match(completed.title, /Issue closed: #1 /);
  assert.equal(completed.color, COLORS.purple);
  const notPlanned = format("issues", {
    ...opened,
    action: "closed",
    issue: { ...issue, state: "closed", state_reason: "not_planned" },
  });
  assert.match(notPlanned.title, /Issue closed as not planned: #1 /);
  assert.equal(notPlanned.color, COLORS.grey);
});

Deno.test("issues labeled and transferred say what changed", async () => {
  const labeled = format("issues", await fixtureJson("issues/labeled.payload.json"));
  assert.equal(descriptionText(labeled), "Label: bug");
  const transferred = format("issues", await fixtureJson("issues/transferred.payload.json"));
  assert.match(descriptionText(transferred), /^Moved to Codertocat\/Hello-World#\d+$/);
});

Deno.test("issue_comment: on an issue, and on a pull request", async () => {
  const payload = await fixtureJson("issue_comment/created.payload.json");
  const onIssue = format("issue_comment", payload);
  assert.equal(
    onIssue.title,
    "[Codertocat/Hello-World] New comment on issue #1 Spelling error in the README file",
  );
  assert.equal(onIssue.url, `${REPO}/issues/1#issuecomment-492700400`);
  assert.equal(
    descriptionText(onIssue),
    "You are totally right! I'll get this fixed right away.",
  );
  const issue = payload.issue as Payload;
  const onPull = format("issue_comment", {
    ...payload,
    issue: { ...issue, pull_request: { html_url: `${REPO}/pull/1` } },
  });
  assert.match(onPull.title, /New comment on pull request #1 /);
});

Deno.test("commit_comment: the commit and the file", async () => {
  const message = format(
    "commit_comment",
    await fixtureJson("commit_comment/created.on-file.payload.json"),
  );
  assert.equal(message.title, "[Codertocat/Hello-World] New comment on commit 6113728");
  assert.match(message.url ?? "", /#commitcomment-\d+$/);
  assert.equal(fieldText(message, "Commit"), "6113728");
  assert.equal(fieldText(message, "File"), "README.md:1");
});

Deno.test("create and delete name the ref type", async () => {
  const created = format("create", await fixtureJson("create/payload.json"));
  assert.equal(created.title, "[Codertocat/Hello-World] Created tag simple-tag");
  assert.equal(created.url, `${REPO}/tree/simple-tag`);
  assert.equal(created.color, COLORS.green);
  const deleted = format("delete", await fixtureJson("delete/payload.json"));
  assert.equal(deleted.title, "[Codertocat/Hello-World] Deleted tag simple-tag");
  assert.equal(deleted.color, COLORS.red);
});

Deno.test("release: published and pre-release", async () => {
  const published = format("release", await fixtureJson("release/published.payload.json"));
  assert.equal(published.title, "[Codertocat/Hello-World] Release published: 0.0.1");
  assert.equal(published.url, `${REPO}/releases/tag/0.0.1`);
  assert.equal(published.color, COLORS.green);
  assert.equal(fieldText(published, "Tag"), "0.0.1");
  const pre = format("release", await fixtureJson("release/prereleased.payload.json"));
  assert.equal(pre.title, "[Codertocat/Hello-World] Pre-release published: 0.0.1");
  assert.equal(pre.color, COLORS.yellow);
});

Deno.test("workflow_run completed: outcome, branch, commit, trigger, duration", async () => {
  const message = format("workflow_run", await fixtureJson("workflow_run/completed.payload.json"));
  assert.equal(message.title, "[octo-org/octo-repo] Workflow test #163 succeeded");
  assert.equal(message.url, "https://github.com/octo-org/octo-repo/actions/runs/289782451");
  assert.equal(message.color, COLORS.green);
  assert.equal(fieldText(message, "Branch"), "master");
  assert.equal(fieldText(message, "Commit"), "3484a3f");
  assert.equal(fieldText(message, "Trigger"), "repository_dispatch");
  assert.equal(fieldText(message, "Duration"), "0s");
  const failed = format("workflow_run", {
    ...await fixtureJson("workflow_run/completed.payload.json"),
    workflow_run: {
      ...((await fixtureJson("workflow_run/completed.payload.json")).workflow_run as Payload),
      conclusion: "failure",
    },
  });
  assert.match(failed.title, /Workflow test #163 failed$/);
  assert.equal(failed.color, COLORS.red);
});

Deno.test("workflow_job failure names the failed step", async () => {
  const message = format(
    "workflow_job",
    await fixtureJson("workflow_job/completed.failure.with-organization.payload.json"),
  );
  assert.match(message.title, /Job linters failed$/);
  assert.equal(message.color, COLORS.red);
  assert.equal(fieldText(message, "Workflow"), "CodeQL");
  assert.equal(fieldText(message, "Failed step"), "Run yarn run format-check");
  assert.equal(fieldText(message, "Duration"), "3m 18s");
});

Deno.test("check_run and check_suite", async () => {
  const run = format("check_run", await fixtureJson("check_run/completed.payload.json"));
  assert.equal(run.title, "[Codertocat/Hello-World] Check Octocoders-linter succeeded");
  assert.equal(run.url, `${REPO}/runs/128620228`);
  assert.equal(fieldText(run, "Branch"), "changes");
  const requested = format(
    "check_run",
    await fixtureJson("check_run/requested_action.payload.json"),
  );
  assert.match(requested.title, /action requested$/);
  assert.equal(fieldText(requested, "Action"), "lgtm|26764");
  const suite = format("check_suite", await fixtureJson("check_suite/completed.payload.json"));
  assert.equal(suite.title, "[Codertocat/Hello-World] Check suite succeeded");
  assert.equal(
    suite.url,
    `${REPO}/commit/ec26c3e57ca3a959ca5aad62de7213c562f8c821/checks`,
  );
  assert.equal(fieldText(suite, "App"), "octocoders-linter");
  assert.equal(descriptionText(suite), "Update README.md");
});

Deno.test("status: context, state, commit and branches", async () => {
  const message = format("status", await fixtureJson("status/payload.json"));
  assert.equal(message.title, "[Codertocat/Hello-World] Status default succeeded");
  assert.equal(message.color, COLORS.green);
  assert.equal(fieldText(message, "Commit"), "6113728");
  assert.equal(fieldText(message, "Branches"), "master, changes, gh-pages");
  const failed = format("status", { ...await fixtureJson("status/payload.json"), state: "error" });
  assert.match(failed.title, /Status default errored$/);
  assert.equal(failed.color, COLORS.red);
});

Deno.test("deployment and deployment_status", async () => {
  const deployment = format("deployment", await fixtureJson("deployment/payload.json"));
  assert.equal(deployment.title, "[Codertocat/Hello-World] Deployment to production created");
  assert.equal(fieldText(deployment, "Ref"), "master");
  assert.equal(fieldText(deployment, "Commit"), "f95f852");
  const status = format(
    "deployment_status",
    await fixtureJson("deployment_status/gh-pages.payload.json"),
  );
  assert.equal(
    status.title,
    "[Codertocat/Hello-World] Deployment to github-pages in progress",
  );
  assert.equal(status.color, COLORS.yellow);
  assert.deepEqual(linksIn(fieldOf(status, "Log").value), [
    "https://github.com/CorsixTH/CorsixTH/runs/4687056418?check_suite_focus=true",
  ]);
  assert.equal(status.author?.name, "github-pages[bot]");
});

Deno.test("deployment_review requested: environment, run, reviewers and who asked", async () => {
  const payload = await fixtureJson("deployment_review/requested.payload.json");
  const review = format("deployment_review", payload);
  assert.equal(
    review.title,
    "[terraform-test-github/sample-app] Deployment to TST waits for review",
  );
  assert.equal(
    review.url,
    "https://github.com/terraform-test-github/sample-app/actions/runs/5453085689",
  );
  assert.equal(review.color, COLORS.yellow);
  assert.equal(fieldText(review, "Reviewers"), "admins");
  assert.equal(review.author?.name, "ilmax");
  const rejected = format("deployment_review", { ...payload, action: "rejected" });
  assert.equal(rejected.title, "[terraform-test-github/sample-app] Deployment to TST rejected");
  assert.equal(rejected.color, COLORS.red);
});

Deno.test("discussion created and answered, discussion_comment", async () => {
  const created = format("discussion", await fixtureJson("discussion/created.payload.json"));
  assert.equal(created.title, "[Codertocat/Hello-World] Discussion created: #4 TEST edit");
  assert.equal(created.url, `${REPO}/discussions/4`);
  assert.equal(fieldText(created, "Category"), "General");
  const answered = format("discussion", await fixtureJson("discussion/answered.payload.json"));
  assert.equal(answered.color, COLORS.green);
  assert.equal(answered.url, `${REPO}/discussions/4#discussioncomment-550561`);
  assert.equal(descriptionText(answered), "Answer:\nPoggers");
  const comment = format(
    "discussion_comment",
    await fixtureJson("discussion_comment/created.payload.json"),
  );
  assert.equal(comment.title, "[Codertocat/Hello-World] New comment on discussion #4 TEST edit");
  assert.equal(descriptionText(comment), "ANSWER");
});

Deno.test("fork, star and watch", async () => {
  const fork = format("fork", await fixtureJson("fork/payload.json"));
  assert.equal(fork.title, "[Codertocat/Hello-World] Forked to Octocoders/Hello-World");
  assert.equal(fork.url, "https://github.com/Octocoders/Hello-World");
  const star = format("star", await fixtureJson("star/created.payload.json"));
  assert.equal(star.title, "[Codertocat/Hello-World] Repository starred");
  assert.equal(fieldText(star, "Stars"), "1");
  assert.equal(
    format("star", await fixtureJson("star/deleted.payload.json")).title,
    "[Codertocat/Hello-World] Star removed",
  );
  assert.equal(format("watch", await fixtureJson("watch/started.payload.json")).title, star.title);
});

Deno.test("member, label, milestone, repository", async () => {
  const added = format("member", await fixtureJson("member/added.payload.json"));
  assert.equal(added.title, "[Codertocat/Hello-World] Collaborator added: hacktocat");
  assert.equal(added.url, "https://github.com/hacktocat");
  assert.equal(added.color, COLORS.green);
  const edited = format("member", await fixtureJson("member/edited.payload.json"));
  assert.equal(fieldText(edited, "Previous permission"), "write");
  const label = format("label", await fixtureJson("label/edited.payload.json"));
  assert.equal(label.title, "[Codertocat/Hello-World] Label edited: :bug: Bugfix");
  assert.equal(label.color, 0xcceeaa);
  assert.equal(fieldText(label, "Color"), "#cceeaa");
  assert.equal(descriptionText(label), "Fixes a bug");
  const milestone = format("milestone", await fixtureJson("milestone/closed.payload.json"));
  assert.equal(milestone.title, "[Codertocat/Hello-World] Milestone closed: v1.0");
  assert.equal(milestone.url, `${REPO}/milestone/1`);
  assert.equal(fieldText(milestone, "Due"), "2019-05-23");
  const renamed = format("repository", await fixtureJson("repository/renamed.payload.json"));
  assert.equal(renamed.title, "[Octocoders/Hello-World] Repository renamed from Hello-World");
  const transferred = format(
    "repository",
    await fixtureJson("repository/transferred.payload.json"),
  );
  assert.equal(transferred.title, "[Octocoders/Hello-World] Repository transferred from octocat");
});

Deno.test("code scanning, Dependabot and secret scanning alerts", async () => {
  const created = format(
    "code_scanning_alert",
    await fixtureJson("code_scanning_alert/created.payload.json"),
  );
  assert.equal(
    created.title,
    "[Codertocat/Hello-World] Code scanning alert #10 created: Query built from user-controlled sources",
  );
  assert.equal(created.url, `${REPO}/security/code-scanning/10`);
  assert.equal(created.color, COLORS.red);
  assert.equal(fieldText(created, "Tool"), "CodeQL");
  assert.equal(fieldText(created, "Branch"), "code-feature");
  assert.equal(
    fieldText(created, "File"),
    "src/main/java/com/github/demo/service/BookService.java:84",
  );
  const fixed = format(
    "code_scanning_alert",
    await fixtureJson("code_scanning_alert/fixed.payload.json"),
  );
  assert.equal(fixed.color, COLORS.green);

  const dependabot = format(
    "dependabot_alert",
    await fixtureJson("dependabot_alert/created.payload.json"),
  );
  assert.equal(
    dependabot.title,
    "[wolfy1339/pika-pack] Dependabot alert #20 created: semver vulnerable to Regular Expression Denial of Service",
  );
  assert.equal(dependabot.color, COLORS.orange);
  assert.equal(fieldText(dependabot, "Package"), "semver (npm)");
  assert.equal(fieldText(dependabot, "Vulnerable versions"), "< 7.5.2");
  assert.equal(fieldText(dependabot, "Patched version"), "7.5.2");
  assert.equal(fieldText(dependabot, "Advisory"), "CVE-2022-25883");

  const secret = format(
    "secret_scanning_alert",
    await fixtureJson("secret_scanning_alert/reopened.payload.json"),
  );
  assert.equal(
    secret.title,
    "[Codertocat/Hello-World] Secret scanning alert #191 reopened: adafruit_io_key",
  );
  assert.equal(secret.color, COLORS.red);
});

Deno.test("ping produces no message; an unknown kind gets the generic one", async () => {
  assert.equal(formatEvent(eventOf("ping", await fixtureJson("ping/payload.json"))), null);
  const gollum = format("gollum", await fixtureJson("gollum/payload.json"));
  assert.equal(gollum.title, "[Codertocat/Hello-World] Gollum");
  assert.equal(gollum.color, COLORS.grey);
  assert.equal(fieldText(gollum, "Event"), "gollum");
  const made_up = format("branch_protection_configuration", {
    action: "enabled",
    repository: { full_name: "o/r", html_url: "https://github.com/o/r" },
  });
  assert.equal(made_up.title, "[o/r] Branch protection configuration enabled");
  assert.equal(fieldText(made_up, "Event"), "branch_protection_configuration.enabled");
  assert.equal(made_up.url, "https://github.com/o/r");
});

Deno.test("dedicated formatters read empty or oddly shaped payloads without failing", () => {
  const kinds = [
    "push",
    "pull_request",
    "pull_request_review",
    "pull_request_review_comment",
    "issues",
    "issue_comment",
    "commit_comment",
    "create",
    "delete",
    "release",
    "workflow_run",
    "workflow_job",
    "check_run",
    "check_suite",
    "status",
    "deployment",
    "deployment_status",
    "discussion",
    "discussion_comment",
    "fork",
    "star",
    "watch",
    "member",
    "label",
    "milestone",
    "repository",
    "code_scanning_alert",
    "dependabot_alert",
    "secret_scanning_alert",
  ];
  const odd: Payload[] = [
    {},
    { action: "opened", repository: "not an object", sender: 42 },
    { action: "closed", pull_request: [], issue: null, commits: "x", ref: 5 },
    { repository: { html_url: "javascript:alert(1)", full_name: "a/b" } },
  ];
  for (const kind of kinds) {
    for (const payload of odd) {
      const message = format(kind, payload);
      assert.ok(message.title.length > 0, kind);
      assert.ok(!message.fields?.some((item) => item.name === "Event"), `${kind} fell back`);
      assert.notEqual(message.url, "javascript:alert(1)");
    }
  }
});

Deno.test("actions and states named like inherited members (constructor, toString …) are shown as words", async () => {
  const names = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"];
  const withAction = (path: string) => async (name: string) => ({
    ...await fixtureJson(path),
    action: name,
  });
  const withNested = (path: string, key: string, field: string) => async (name: string) => {
    const payload = await fixtureJson(path);
    return { ...payload, [key]: { ...(payload[key] as Payload), [field]: name } };
  };
  const cases: [string, (name: string) => Promise<Payload>][] = [
    ["pull_request", withAction("pull_request/opened.payload.json")],
    ["discussion", withAction("discussion/created.payload.json")],
    ["milestone", withAction("milestone/closed.payload.json")],
    ["repository", withAction("repository/renamed.payload.json")],
    ["dependabot_alert", withAction("dependabot_alert/created.payload.json")],
    ["check_run", withNested("check_run/completed.payload.json", "check_run", "conclusion")],
    ["check_run", withNested("check_run/completed.payload.json", "check_run", "status")],
    [
      "pull_request_review",
      withNested("pull_request_review/submitted.payload.json", "review", "state"),
    ],
    [
      "deployment_status",
      withNested("deployment_status/gh-pages.payload.json", "deployment_status", "state"),
    ],
    ["status", async (name) => ({ ...await fixtureJson("status/payload.json"), state: name })],
  ];
  for (const [kind, payloadFor] of cases) {
    for (const name of names) {
      const message = format(kind, await payloadFor(name));
      const label = `${kind} ${name}`;
      assert.equal(typeof message.color, "number", label);
      assert.doesNotMatch(JSON.stringify(message), /native code|function \w*\(/, label);
    }
  }
});
