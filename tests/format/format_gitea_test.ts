/**
 * Gitea events, normalized to GitHub's kind and action names by the ingress but
 * with Gitea's own field shapes (payloads written from Gitea's webhook format).
 */
import assert from "node:assert/strict";
import { COLORS } from "../../lib/format/colors.ts";
import {
  descriptionText,
  fieldOf,
  fieldText,
  format,
  linksIn,
  type Payload,
} from "../_format_helpers.ts";

/** Gitea served under a path, so links must keep it. */
const FORGE = "https://git.example.org/forge";
const REPO = `${FORGE}/gitea/webhooks`;

const giteaUser = {
  id: 1,
  login: "gitea",
  username: "gitea",
  full_name: "Gitea",
  email: "someone@gitea.io",
  avatar_url: `${FORGE}/avatars/1`,
};

const repository = {
  id: 140,
  owner: giteaUser,
  name: "webhooks",
  full_name: "gitea/webhooks",
  html_url: REPO,
  default_branch: "main",
};

function pullRequest(overrides: Payload = {}): Payload {
  return {
    id: 7,
    number: 3,
    user: giteaUser,
    title: "Add webhook formatter",
    body: "Implements the formatter.\r\n\r\n<!-- template comment -->",
    labels: [{ id: 1, name: "enhancement", color: "84b6eb" }],
    milestone: null,
    assignees: null,
    state: "open",
    html_url: `${REPO}/pulls/3`,
    mergeable: true,
    merged: false,
    merged_at: null,
    merged_by: null,
    base: { label: "main", ref: "main", sha: "a".repeat(40), repo: repository },
    head: { label: "feature", ref: "feature", sha: "b".repeat(40), repo: repository },
    ...overrides,
  };
}

Deno.test("gitea push: compare_url, commit url, total_commits, Gitea branch links", () => {
  const message = format("push", {
    ref: "refs/heads/develop",
    before: "28e1879d029cb852e4844d9c718537df08844e03",
    after: "bffeb74224043ba2feb48d137756c8a9331c449a",
    compare_url:
      `${REPO}/compare/28e1879d029cb852e4844d9c718537df08844e03...bffeb74224043ba2feb48d137756c8a9331c449a`,
    commits: [{
      id: "bffeb74224043ba2feb48d137756c8a9331c449a",
      message: "Webhooks Yay!\n",
      url: `${REPO}/commit/bffeb74224043ba2feb48d137756c8a9331c449a`,
      author: { name: "Gitea", email: "someone@gitea.io", username: "gitea" },
      committer: { name: "Gitea", email: "someone@gitea.io", username: "gitea" },
      timestamp: "2017-03-13T13:52:11-04:00",
    }],
    total_commits: 3,
    repository,
    pusher: giteaUser,
    sender: giteaUser,
  }, "gitea");
  assert.equal(message.title, "[gitea/webhooks] Pushed 3 commits to develop");
  assert.match(
    message.url ?? "",
    /^https:\/\/git\.example\.org\/forge\/gitea\/webhooks\/compare\//,
  );
  assert.equal(message.color, COLORS.blue);
  assert.deepEqual(descriptionText(message).split("\n"), [
    "bffeb74 Webhooks Yay! — gitea",
    "… and 2 more commits",
  ]);
  assert.deepEqual(message.author, {
    name: "gitea",
    url: `${FORGE}/gitea`,
    iconUrl: `${FORGE}/avatars/1`,
  });
  assert.deepEqual(message.footer, { repository: "gitea/webhooks", provider: "gitea" });
});

Deno.test("gitea push: a new branch (zero before) links to src/branch, a zero after is a deletion", () => {
  const base = { commits: [], repository, sender: giteaUser };
  const created = format("push", {
    ...base,
    ref: "refs/heads/feature/x",
    before: "0".repeat(40),
    after: "c".repeat(40),
  }, "gitea");
  assert.equal(created.title, "[gitea/webhooks] Created branch feature/x");
  assert.equal(created.url, `${REPO}/src/branch/feature/x`);
  const deleted = format("push", {
    ...base,
    ref: "refs/heads/feature/x",
    before: "c".repeat(40),
    after: "0".repeat(40),
  }, "gitea");
  assert.equal(deleted.title, "[gitea/webhooks] Deleted branch feature/x");
  assert.equal(deleted.color, COLORS.red);
});

Deno.test("gitea pull_request opened: body cleaned, branch links, labels, no counts it does not send", () => {
  const message = format("pull_request", {
    action: "opened",
    number: 3,
    pull_request: pullRequest(),
    repository,
    sender: giteaUser,
  }, "gitea");
  assert.equal(message.title, "[gitea/webhooks] Pull request opened: #3 Add webhook formatter");
  assert.equal(message.url, `${REPO}/pulls/3`);
  assert.equal(message.color, COLORS.green);
  assert.deepEqual(message.description, [{ kind: "quote", text: "Implements the formatter." }]);
  assert.deepEqual(linksIn(fieldOf(message, "Branch").value), [
    `${REPO}/src/branch/feature`,
    `${REPO}/src/branch/main`,
  ]);
  assert.equal(fieldText(message, "Labels"), "enhancement");
  assert.equal(message.fields?.some((item) => item.name === "Changes"), false);
});

Deno.test("gitea pull_request closed as merged, and synchronize without before/after", () => {
  const merged = format("pull_request", {
    action: "closed",
    number: 3,
    pull_request: pullRequest({ state: "closed", merged: true, merged_by: giteaUser }),
    repository,
    sender: giteaUser,
  }, "gitea");
  assert.match(merged.title, /Pull request merged: #3 /);
  assert.equal(merged.color, COLORS.purple);
  assert.equal(descriptionText(merged), "Merged by gitea");
  const updated = format("pull_request", {
    action: "synchronize",
    number: 3,
    pull_request: pullRequest(),
    repository,
    sender: giteaUser,
  }, "gitea");
  assert.match(updated.title, /Pull request updated: #3 /);
});

Deno.test("gitea review: review.type and review.content instead of state and body", () => {
  const review = (type: string) =>
    format("pull_request_review", {
      action: "submitted",
      number: 3,
      pull_request: pullRequest(),
      review: { type, content: "Looks good to me" },
      repository,
      sender: giteaUser,
    }, "gitea");
  const approved = review("pull_request_review_approved");
  assert.match(approved.title, /Pull request approved: #3 /);
  assert.equal(approved.color, COLORS.green);
  assert.equal(descriptionText(approved), "Looks good to me");
  assert.equal(approved.url, `${REPO}/pulls/3`);
  assert.match(review("pull_request_review_rejected").title, /Changes requested: #3 /);
  assert.match(review("pull_request_review_comment").title, /Pull request reviewed: #3 /);
});

Deno.test("gitea issue_comment: is_pull marks a pull request comment", () => {
  const comment = {
    id: 9,
    html_url: `${REPO}/pulls/3#issuecomment-9`,
    user: giteaUser,
    body: "Please rebase",
  };
  const message = format("issue_comment", {
    action: "created",
    issue: { id: 7, number: 3, title: "Add webhook formatter", user: giteaUser },
    comment,
    is_pull: true,
    repository,
    sender: giteaUser,
  }, "gitea");
  assert.equal(
    message.title,
    "[gitea/webhooks] New comment on pull request #3 Add webhook formatter",
  );
  assert.equal(message.url, `${REPO}/pulls/3#issuecomment-9`);
  assert.equal(descriptionText(message), "Please rebase");
  assert.equal(message.author?.name, "gitea");
});

Deno.test("gitea release and create link to src/tag and src/branch", () => {
  const release = format("release", {
    action: "published",
    release: {
      id: 1,
      tag_name: "v1.0",
      name: "",
      body: "First release",
      html_url: `${REPO}/releases/tag/v1.0`,
      draft: false,
      prerelease: false,
      author: giteaUser,
    },
    repository,
    sender: giteaUser,
  }, "gitea");
  assert.equal(release.title, "[gitea/webhooks] Release published: v1.0");
  assert.deepEqual(linksIn(fieldOf(release, "Tag").value), [`${REPO}/src/tag/v1.0`]);
  const created = format("create", {
    sha: "c".repeat(40),
    ref: "feature",
    ref_type: "branch",
    repository,
    sender: giteaUser,
  }, "gitea");
  assert.equal(created.title, "[gitea/webhooks] Created branch feature");
  assert.equal(created.url, `${REPO}/src/branch/feature`);
});

Deno.test("gitea status without action: the state decides", () => {
  const message = format("status", {
    sha: "d".repeat(40),
    context: "ci/drone",
    state: "failure",
    description: "Build failed",
    target_url: "https://ci.example.org/build/12",
    repository,
    sender: giteaUser,
  }, "gitea");
  assert.equal(message.title, "[gitea/webhooks] Status ci/drone failed");
  assert.equal(message.url, "https://ci.example.org/build/12");
  assert.equal(message.color, COLORS.red);
  assert.equal(descriptionText(message), "Build failed");
});
