/**
 * Who may bind a GitHub App installation in the install flow
 * (`/auth/github/install` and `/bind`): someone who administers the
 * installation's account on GitHub. The installation must be among the
 * person's installations on GitHub (the id in the address can be forged), and
 * its account must be the person's own user account or an organization in
 * which GitHub reports their membership as an active admin. Merely seeing an
 * installation is not enough: every member of an organization sees its
 * installations. A super admin needs only to see it. Where it may be bound is
 * decided by `lib/installations/binding.ts`.
 */
import { HttpError } from "../fresh/mod.ts";
import {
  findOrgAdminship,
  findUserInstallation,
  type Installation,
  type MembershipLookup,
} from "../github/installations.ts";
import type { Logger } from "../log.ts";
import { gitHubAsUser } from "./github_caller.ts";
import type { Principal } from "./principal.ts";
import type { TokenDeps } from "./user_tokens.ts";

/** Parses a positive installation id from a query or form value; 400 otherwise. */
export function parseInstallationId(value: unknown): number {
  const id = typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new HttpError(400, "installation_id must be a positive integer");
  }
  return id;
}

async function adminship(
  deps: TokenDeps,
  principal: Principal,
  account: Installation["account"],
): Promise<MembershipLookup> {
  if (account.type === "User") {
    return String(account.id) === principal.userId ? { kind: "admin" } : { kind: "not_admin" };
  }
  if (account.type === "Organization") {
    return await findOrgAdminship(gitHubAsUser(deps, principal.userId), account.login);
  }
  return { kind: "not_admin" };
}

/** The answer (502) when GitHub fails to tell; what it said goes to the log only. */
const GITHUB_FAILED = "GitHub could not confirm your access to the installation; try again later";

function githubFailed(log: Logger, installationId: number, message: string): HttpError {
  log.warn("install flow: GitHub failed", { installationId, error: message });
  return new HttpError(502, GITHUB_FAILED);
}

/**
 * The installation, when the person may bind it (see the module comment).
 * Throws 403 for an installation they cannot see or do not administer, 502
 * (a fixed text) when GitHub fails; answers null when the person's GitHub token is gone
 * (they must sign in again). The DEBUG_MODE principal has no GitHub token:
 * its installation is taken on trust.
 */
export async function verifyInstaller(
  deps: TokenDeps & { log: Logger },
  principal: Principal,
  installationId: number,
): Promise<Installation | null> {
  if (principal.debug) return { id: installationId, account: { id: 0, login: "debug" } };
  const lookup = await findUserInstallation(gitHubAsUser(deps, principal.userId), installationId);
  switch (lookup.kind) {
    case "no_token":
      return null;
    case "not_found":
      throw new HttpError(
        403,
        `Installation ${installationId} is not one you can access on GitHub`,
      );
    case "failed":
      throw githubFailed(deps.log, installationId, lookup.message);
  }
  const { installation } = lookup;
  if (principal.superAdmin) return installation;
  const role = await adminship(deps, principal, installation.account);
  switch (role.kind) {
    case "admin":
      return installation;
    case "no_token":
      return null;
    case "failed":
      throw githubFailed(deps.log, installationId, role.message);
    case "not_admin":
      throw new HttpError(
        403,
        `Only an admin of ${installation.account.login} on GitHub may bind installation ${installationId}; ask one of them, or a super admin`,
      );
  }
}
