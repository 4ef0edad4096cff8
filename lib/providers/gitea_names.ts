/**
 * Gitea / Forgejo event and action names mapped to GitHub's, so that one route
 * (`pull_request.synchronize`, `pull_request_review`) serves both forges.
 * Names not listed are already GitHub's (`push`, `create`, `delete`, `fork`,
 * `release`, `issues`, `issue_comment`, `pull_request`, ...) or have no GitHub
 * counterpart and pass through unchanged.
 */
import type { EventName } from "./adapter.ts";
import { ownValue } from "../own_value.ts";

/**
 * `X-Gitea-Event` value → GitHub event kind. Gitea sends the first group in
 * `X-Gitea-Event`; the detailed trigger names (also seen in `X-Gitea-Event-Type`)
 * are mapped too in case a sender puts them there.
 */
const GITEA_EVENT_KINDS: Readonly<Record<string, string>> = {
  pull_request_approved: "pull_request_review",
  pull_request_rejected: "pull_request_review",
  pull_request_comment: "pull_request_review",
  pull_request_review_approved: "pull_request_review",
  pull_request_review_rejected: "pull_request_review",
  pull_request_review_comment: "pull_request_review",
  pull_request_assign: "pull_request",
  pull_request_label: "pull_request",
  pull_request_milestone: "pull_request",
  pull_request_sync: "pull_request",
  pull_request_review_request: "pull_request",
  issue_assign: "issues",
  issue_label: "issues",
  issue_milestone: "issues",
};

/** Gitea action → GitHub action, for every kind. */
const GITEA_ACTIONS: Readonly<Record<string, string>> = {
  synchronized: "synchronize",
  label_updated: "labeled",
  label_cleared: "unlabeled",
  reviewed: "submitted",
};

/** Gitea action → GitHub action, for one kind only (`kind.action` keys). */
const GITEA_KIND_ACTIONS: Readonly<Record<string, string>> = {
  "release.updated": "edited",
};

/** GitHub's kind and action for a Gitea event name and payload action. */
export function normalizeGiteaName(event: string, action: string | undefined): EventName {
  const kind = ownValue(GITEA_EVENT_KINDS, event) ?? event;
  if (action === undefined) return { kind };
  return {
    kind,
    action: ownValue(GITEA_KIND_ACTIONS, `${kind}.${action}`) ?? ownValue(GITEA_ACTIONS, action) ??
      action,
  };
}
