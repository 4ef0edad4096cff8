/**
 * Installation → group bindings: the one module that decides which group a
 * GitHub App installation feeds. A bound group receives the installation's
 * events, private repositories included, so a binding is made only on facts
 * nobody but the installation's own account or a super admin controls:
 *
 * - GitHub's signed `installation.created` webhook binds an unbound group
 *   whose `owners` (a field only a super admin may set) names the account.
 *   Member lists are never consulted: a group owner edits those at will.
 * - Failing that, when the account installed the app on itself (a user
 *   account, and the event's sender is that user), the webhook provisions
 *   `inst-{id}` with that user as its only owner.
 * - Otherwise (an organization, whose sender may be a repository admin
 *   rather than an owner of the organization, or an `inst-{id}` id already
 *   taken by a group not bound to the installation) the webhook binds nothing:
 *   the installation waits for the install flow, where GitHub confirms the
 *   installer administers the account, or for a super admin to set
 *   `installationId`.
 * - The install flow (`bindForInstaller`) binds an installation the signed-in
 *   person administers to `inst-{id}` (created with them as owner) or to a
 *   group they own. An installation bound already moves only when the person
 *   owns every group it is bound to (or is a super admin): nobody takes an
 *   installation away from another group's owners.
 * - `installation.deleted` removes the binding from every bound group; the
 *   groups and their routes stay.
 *
 * Every change is one atomic write with its audit entries, retried when a
 * group changed meanwhile.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { HttpError } from "../fresh/http_error.ts";
import type { Installation } from "../github/installations.ts";
import {
  type AuditAction,
  type AuditActor,
  type AuditEntry,
  newAuditEntry,
} from "../store/telemetry/audit.ts";
import {
  type GroupEntry,
  type GroupWrite,
  listGroupEntries,
  putGroupsIfUnchanged,
} from "../store/config/groups.ts";
import type { Group } from "../types.ts";

/** A webhook's installation and who sent the event (null when the payload names nobody). */
export interface InstallationEvent {
  installation: Installation;
  sender: AuditActor | null;
}

/** What an installation webhook changed (`ignored`: an action other than created or deleted). */
export interface InstallationOutcome {
  result:
    | "provisioned"
    | "bound"
    | "already_bound"
    | "unclaimed"
    | "unbound"
    | "not_bound"
    | "ignored";
  groupIds: string[];
}

/** What the install flow's choice page offers. */
export interface InstallChoices {
  /** `inst-{installationId}`: whether it exists, and whether the person owns it. */
  newGroup: { id: string; exists: boolean; owned: boolean };
  /** Other groups the person owns, which the installation can be bound to. */
  ownedGroups: { id: string; name: string; installationId?: number }[];
  /** The groups the installation is bound to now. */
  boundGroupIds: string[];
  /** Whether the person may move the binding away from those groups. */
  canMove: boolean;
}

type Source = "webhook" | "setup_url";

const ATTEMPTS = 5;

/** The id of the group provisioned for an installation. */
function installationGroupId(installationId: number): string {
  return `inst-${installationId}`;
}

function ownsGroup(principal: Principal, group: Group): boolean {
  return principal.superAdmin ||
    group.members.some((m) => m.userId === principal.userId && m.role === "owner");
}

/** Whether a super admin named the account in the group's `owners`. */
function ownersName(group: Group, login: string): boolean {
  const wanted = login.toLowerCase();
  return (group.owners ?? []).some((owner) => owner.toLowerCase() === wanted);
}

function boundTo(entries: readonly GroupEntry[], installationId: number): GroupEntry[] {
  return entries.filter((entry) => entry.group.installationId === installationId);
}

/** The write that removes a group's binding. */
function unbinding(
  { group: { installationId: _id, ...group }, versionstamp }: GroupEntry,
): GroupWrite {
  return { group, expected: versionstamp };
}

function provisionedGroup(installation: Installation, owner: AuditActor): Group {
  return {
    id: installationGroupId(installation.id),
    name: installation.account.login,
    members: [{ userId: owner.userId, login: owner.login, role: "owner" }],
    providers: ["github"],
    installationId: installation.id,
    owners: [installation.account.login],
  };
}

function auditOf(
  actor: AuditActor,
  installation: Installation,
  source: Source,
  now: number,
): (action: AuditAction, groupId: string) => AuditEntry {
  return (action, groupId) =>
    newAuditEntry({
      actor,
      action,
      groupId,
      target: `installation:${installation.id}`,
      detail: { installationId: installation.id, account: installation.account.login, source },
    }, now);
}

async function retry<T>(attempt: () => Promise<T | null>, giveUp: () => Error): Promise<T> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const outcome = await attempt();
    if (outcome !== null) return outcome;
  }
  throw giveUp();
}

/** The audit actor of a webhook: its sender, else the installation's account. */
function actorOf({ installation, sender }: InstallationEvent): AuditActor {
  return sender ?? { userId: String(installation.account.id), login: installation.account.login };
}

/** The user, when GitHub's event says a user account installed the app on itself; else null. */
function selfInstaller({ installation, sender }: InstallationEvent): AuditActor | null {
  const self = installation.account.type === "User" && sender !== null &&
    sender.userId === String(installation.account.id);
  return self ? sender : null;
}

async function tryCreated(
  kv: Kv,
  event: InstallationEvent,
  now: number,
): Promise<InstallationOutcome | null> {
  const { installation } = event;
  const entries = await listGroupEntries(kv);
  const bound = boundTo(entries, installation.id);
  if (bound.length > 0) return { result: "already_bound", groupIds: bound.map((e) => e.group.id) };
  const audit = auditOf(actorOf(event), installation, "webhook", now);

  const claimed = entries.filter((e) =>
    e.group.installationId === undefined && ownersName(e.group, installation.account.login)
  );
  if (claimed.length > 0) {
    const writes = claimed.map(({ group, versionstamp }) => ({
      group: { ...group, installationId: installation.id },
      expected: versionstamp,
    }));
    const ok = await putGroupsIfUnchanged(
      kv,
      writes,
      claimed.map((e) => audit("installation.bind", e.group.id)),
    );
    return ok ? { result: "bound", groupIds: claimed.map((e) => e.group.id) } : null;
  }

  const groupId = installationGroupId(installation.id);
  const installer = selfInstaller(event);
  if (!installer || entries.some((e) => e.group.id === groupId)) {
    return { result: "unclaimed", groupIds: [] };
  }
  const group = provisionedGroup(installation, installer);
  const ok = await putGroupsIfUnchanged(kv, [{ group, expected: null }], [
    audit("installation.provision", groupId),
  ]);
  return ok ? { result: "provisioned", groupIds: [groupId] } : null;
}

async function tryDeleted(
  kv: Kv,
  event: InstallationEvent,
  now: number,
): Promise<InstallationOutcome | null> {
  const { installation } = event;
  const bound = boundTo(await listGroupEntries(kv), installation.id);
  if (bound.length === 0) return { result: "not_bound", groupIds: [] };
  const audit = auditOf(actorOf(event), installation, "webhook", now);
  const writes = bound.map(unbinding);
  const ok = await putGroupsIfUnchanged(
    kv,
    writes,
    bound.map((e) => audit("installation.unbind", e.group.id)),
  );
  return ok ? { result: "unbound", groupIds: bound.map((e) => e.group.id) } : null;
}

/** Applies GitHub's `installation.created` (see the module comment). */
export function applyInstallationCreated(
  kv: Kv,
  event: InstallationEvent,
  now: number,
): Promise<InstallationOutcome> {
  return retry(
    () => tryCreated(kv, event, now),
    () =>
      new Error(`Cannot apply installation.created ${event.installation.id}: groups kept changing`),
  );
}

/** Applies GitHub's `installation.deleted`: every bound group loses the binding. */
export function applyInstallationDeleted(
  kv: Kv,
  event: InstallationEvent,
  now: number,
): Promise<InstallationOutcome> {
  return retry(
    () => tryDeleted(kv, event, now),
    () =>
      new Error(`Cannot apply installation.deleted ${event.installation.id}: groups kept changing`),
  );
}

/** The choices the install page offers the person for this installation. */
export async function installChoices(
  kv: Kv,
  principal: Principal,
  installationId: number,
): Promise<InstallChoices> {
  const groups = (await listGroupEntries(kv)).map((entry) => entry.group);
  const newId = installationGroupId(installationId);
  const newGroup = groups.find((group) => group.id === newId);
  const bound = groups.filter((group) => group.installationId === installationId);
  return {
    newGroup: {
      id: newId,
      exists: newGroup !== undefined,
      owned: newGroup !== undefined && ownsGroup(principal, newGroup),
    },
    ownedGroups: groups
      .filter((group) => group.id !== newId && ownsGroup(principal, group))
      .map(({ id, name, installationId }) => ({ id, name, installationId })),
    boundGroupIds: bound.map((group) => group.id),
    canMove: bound.every((group) => ownsGroup(principal, group)),
  };
}

/** The writes and audits of one install-flow binding attempt; null when nothing changes. */
function planInstallerBinding(
  entries: readonly GroupEntry[],
  principal: Principal,
  installation: Installation,
  groupId: string,
  now: number,
): { writes: GroupWrite[]; audits: AuditEntry[] } | null {
  const target = entries.find((e) => e.group.id === groupId);
  const isNewGroup = groupId === installationGroupId(installation.id);
  if (!target && !isNewGroup) throw new HttpError(404, `Group ${groupId} does not exist`);
  if (target && !ownsGroup(principal, target.group)) {
    throw new HttpError(403, `You are not an owner of group ${groupId}`);
  }
  if (target?.group.installationId === installation.id) return null;
  const others = boundTo(entries, installation.id);
  if (!others.every((e) => ownsGroup(principal, e.group))) {
    throw new HttpError(
      409,
      `Installation ${installation.id} is already bound to a group you do not own; only a super admin can bind it elsewhere`,
    );
  }
  const audit = auditOf(
    { userId: principal.userId, login: principal.login },
    installation,
    "setup_url",
    now,
  );
  const writes = others.map(unbinding);
  const audits = others.map((e) => audit("installation.unbind", e.group.id));
  if (target) {
    writes.push({
      group: { ...target.group, installationId: installation.id },
      expected: target.versionstamp,
    });
    audits.push(audit("installation.bind", groupId));
  } else {
    writes.push({ group: provisionedGroup(installation, principal), expected: null });
    audits.push(audit("installation.provision", groupId));
  }
  return { writes, audits };
}

/**
 * The install flow's binding, for a person whose right over the installation
 * GitHub confirmed (see `verifyInstaller`): `inst-{id}` (created when missing,
 * with the person as owner) or a group they own, moving the binding from the
 * groups it had when the person owns those too. Throws 403/404/409 as the
 * checks fail.
 */
export function bindForInstaller(
  kv: Kv,
  principal: Principal,
  installation: Installation,
  groupId: string,
  now: number = Date.now(),
): Promise<void> {
  return retry(async () => {
    const plan = planInstallerBinding(
      await listGroupEntries(kv),
      principal,
      installation,
      groupId,
      now,
    );
    if (plan === null) return undefined;
    return await putGroupsIfUnchanged(kv, plan.writes, plan.audits) ? undefined : null;
  }, () => new HttpError(409, `Group ${groupId} kept changing; try again`));
}
