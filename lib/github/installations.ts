/**
 * What GitHub says about a user and an installation, with the user's token.
 * The install flow's `installation_id` comes from the browser and can be
 * forged, so it is trusted only when it is among the user's installations
 * (`GET /user/installations`). Seeing an installation is not enough to bind
 * it (every member of an organization with read access sees its
 * installations), so the user's role in an organization is looked up too
 * (`GET /user/memberships/orgs/{org}`).
 */
import type { GitHubCaller } from "./client.ts";

/** An installation as the install flow needs it. */
export interface Installation {
  id: number;
  account: { id: number; login: string; type?: string };
}

/** Whether the user can see the installation, and its account when they can. */
type InstallationLookup =
  | { kind: "found"; installation: Installation }
  | { kind: "not_found" }
  | { kind: "no_token" }
  | { kind: "failed"; message: string };

const PAGE_SIZE = 100;
const MAX_PAGES = 10;

/** Looks the installation up among those the user can see (up to 1,000 of them). */
export async function findUserInstallation(
  github: GitHubCaller,
  installationId: number,
): Promise<InstallationLookup> {
  for (let page = 1; page <= MAX_PAGES; page++) {
    const outcome = await github<{ installations?: Installation[] }>({
      method: "GET",
      path: `/user/installations?per_page=${PAGE_SIZE}&page=${page}`,
    });
    if (outcome.kind === "no_token") return outcome;
    if (outcome.kind === "unreachable") {
      return { kind: "failed", message: `GitHub is unreachable: ${outcome.message}` };
    }
    if (outcome.kind === "refused") {
      return outcome.status === 401
        ? { kind: "no_token" }
        : { kind: "failed", message: `GitHub refused the installation list: ${outcome.message}` };
    }
    const installations = outcome.body?.installations ?? [];
    const found = installations.find((installation) => installation.id === installationId);
    if (found) {
      return {
        kind: "found",
        installation: { id: found.id, account: { ...found.account } },
      };
    }
    if (installations.length < PAGE_SIZE) break;
  }
  return { kind: "not_found" };
}

/** The user's membership in an organization, as far as binding its installations is concerned. */
export type MembershipLookup =
  | { kind: "admin" }
  | { kind: "not_admin" }
  | { kind: "no_token" }
  | { kind: "failed"; message: string };

/**
 * Whether the user is an active admin (owner) of the organization `org`. A
 * 404 (not a member) or 403 (GitHub will not say: for a GitHub App, the app
 * lacks the organization Members permission) counts as not an admin.
 */
export async function findOrgAdminship(
  github: GitHubCaller,
  org: string,
): Promise<MembershipLookup> {
  const outcome = await github<{ role?: unknown; state?: unknown }>({
    method: "GET",
    path: `/user/memberships/orgs/${encodeURIComponent(org)}`,
  });
  switch (outcome.kind) {
    case "no_token":
      return outcome;
    case "unreachable":
      return { kind: "failed", message: `GitHub is unreachable: ${outcome.message}` };
    case "refused":
      if (outcome.status === 401) return { kind: "no_token" };
      if (outcome.status === 403 || outcome.status === 404) return { kind: "not_admin" };
      return { kind: "failed", message: `GitHub refused the membership: ${outcome.message}` };
    case "ok": {
      const { role, state } = outcome.body ?? {};
      return role === "admin" && state === "active" ? { kind: "admin" } : { kind: "not_admin" };
    }
  }
}
