/**
 * The GitHub App installations a user can see (`GET /user/installations` with
 * the user's token). The install flow's `installation_id` comes from the
 * browser and can be forged, so it is trusted only when it is in this list.
 */
import type { TokenDeps } from "../auth/user_tokens.ts";
import { callGitHubAsUser } from "./client.ts";

/** An installation as the install flow needs it. */
export interface Installation {
  id: number;
  account: { id: number; login: string; type?: string };
}

/** Whether the user can see the installation, and its account when they can. */
export type InstallationLookup =
  | { kind: "found"; installation: Installation }
  | { kind: "not_found" }
  | { kind: "no_token" }
  | { kind: "failed"; message: string };

const PAGE_SIZE = 100;
const MAX_PAGES = 10;

/** Looks the installation up among those the user can see (up to 1,000 of them). */
export async function findUserInstallation(
  deps: TokenDeps,
  userId: string,
  installationId: number,
): Promise<InstallationLookup> {
  for (let page = 1; page <= MAX_PAGES; page++) {
    const outcome = await callGitHubAsUser<{ installations?: Installation[] }>(deps, userId, {
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
