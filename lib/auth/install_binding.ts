/**
 * The install flow's binding (`/auth/github/install` and `/bind`): after the
 * GitHub App is installed, the installer binds the installation to a new
 * group `inst-{installationId}` (becoming its owner) or to an existing group
 * they own. The installation must be one the person can see on GitHub; the
 * owner role is checked again on the group as it is written, and the write
 * and its audit entry are one atomic operation.
 */
import { HttpError } from "../fresh/http_error.ts";
import { findUserInstallation, type Installation } from "../github/installations.ts";
import { type AuditEntry, newAuditEntry } from "../store/audit.ts";
import { type GroupEntry, listGroupEntries, putGroupsIfUnchanged } from "../store/groups.ts";
import type { Group } from "../types.ts";
import type { Principal } from "./principal.ts";
import type { TokenDeps } from "./user_tokens.ts";

/** What the choice page offers. */
export interface InstallChoices {
  /** `inst-{installationId}`, and whether it exists already. */
  newGroup: { id: string; exists: boolean };
  /** Groups the person owns, which the installation can be bound to. */
  ownedGroups: { id: string; name: string; installationId?: number }[];
}

const ATTEMPTS = 5;

/** The auto-provisioned group id of an installation. */
export function installationGroupId(installationId: number): string {
  return `inst-${installationId}`;
}

/** Parses a positive installation id from a query or form value; 400 otherwise. */
export function parseInstallationId(value: unknown): number {
  const id = typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new HttpError(400, "installation_id must be a positive integer");
  }
  return id;
}

/**
 * The installation, when the person can see it on GitHub. Throws 403 for an
 * installation they cannot see, 502 when GitHub fails; answers null when the
 * person's GitHub token is gone (they must sign in again). The DEBUG_MODE
 * principal has no GitHub token: its installation is taken on trust.
 */
export async function verifyInstallation(
  deps: TokenDeps,
  principal: Principal,
  installationId: number,
): Promise<Installation | null> {
  if (principal.debug) return { id: installationId, account: { id: 0, login: "debug" } };
  const lookup = await findUserInstallation(deps, principal.userId, installationId);
  switch (lookup.kind) {
    case "found":
      return lookup.installation;
    case "no_token":
      return null;
    case "not_found":
      throw new HttpError(
        403,
        `Installation ${installationId} is not one you can access on GitHub`,
      );
    case "failed":
      throw new HttpError(502, lookup.message);
  }
}

function ownsGroup(principal: Principal, group: Group): boolean {
  return principal.superAdmin ||
    group.members.some((m) => m.userId === principal.userId && m.role === "owner");
}

/** The choices the page offers the person for this installation. */
export async function installChoices(
  kv: Deno.Kv,
  principal: Principal,
  installationId: number,
): Promise<InstallChoices> {
  const groups = (await listGroupEntries(kv)).map((entry) => entry.group);
  const newId = installationGroupId(installationId);
  return {
    newGroup: { id: newId, exists: groups.some((group) => group.id === newId) },
    ownedGroups: groups
      .filter((group) => group.id !== newId && ownsGroup(principal, group))
      .map(({ id, name, installationId }) => ({ id, name, installationId })),
  };
}

function bindingAudit(
  principal: Principal,
  installation: Installation,
  action: string,
  groupId: string,
  now: number,
): AuditEntry {
  return newAuditEntry({
    actor: { userId: principal.userId, login: principal.login },
    action,
    groupId,
    target: `installation:${installation.id}`,
    detail: {
      installationId: installation.id,
      account: installation.account.login,
      source: "setup_url",
    },
  }, now);
}

function newInstallationGroup(principal: Principal, installation: Installation): Group {
  return {
    id: installationGroupId(installation.id),
    name: installation.account.login,
    members: [{ userId: principal.userId, login: principal.login, role: "owner" }],
    providers: ["github"],
    installationId: installation.id,
    owners: [installation.account.login],
  };
}

async function tryBind(
  kv: Deno.Kv,
  principal: Principal,
  installation: Installation,
  groupId: string,
  now: number,
): Promise<boolean> {
  const entry: GroupEntry | undefined = (await listGroupEntries(kv))
    .find((e) => e.group.id === groupId);
  const isNewGroup = groupId === installationGroupId(installation.id);
  if (!entry) {
    if (!isNewGroup) throw new HttpError(404, `Group ${groupId} does not exist`);
    const group = newInstallationGroup(principal, installation);
    const audit = bindingAudit(principal, installation, "installation.provision", groupId, now);
    return await putGroupsIfUnchanged(kv, [{ group, expected: null }], [audit]);
  }
  if (!ownsGroup(principal, entry.group)) {
    throw new HttpError(403, `You are not an owner of group ${groupId}`);
  }
  const group = { ...entry.group, installationId: installation.id };
  const audit = bindingAudit(principal, installation, "installation.bind", groupId, now);
  return await putGroupsIfUnchanged(kv, [{ group, expected: entry.versionstamp }], [audit]);
}

/**
 * Binds the installation to `groupId` (`inst-{id}`: created when missing,
 * with the person as owner; any other group: must exist and be owned by the
 * person). Throws 403/404 as the checks fail.
 */
export async function bindInstallation(
  kv: Deno.Kv,
  principal: Principal,
  installation: Installation,
  groupId: string,
  now: number = Date.now(),
): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await tryBind(kv, principal, installation, groupId, now)) return;
  }
  throw new HttpError(409, `Group ${groupId} kept changing; try again`);
}
