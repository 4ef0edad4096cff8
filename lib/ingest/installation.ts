/**
 * GitHub App `installation` events on the global ingress.
 *
 * `created` binds the installation: when a group is already bound to it,
 * nothing changes (redelivery); otherwise every unbound group owned by the
 * installing account is bound (its `owners` list names the account's login,
 * compared without case, or an owner member has the account's user id); when
 * there is none, the group `inst-{installationId}` is created, named after the
 * account, with one owner member: the account itself when it is a user, else
 * the person who installed the app for the organization. `deleted` removes the
 * binding from every bound group; the groups and their routes stay. Each change
 * is one atomic write with its audit entries (actor: the event's sender), retried
 * when a group changed meanwhile. Other actions are acknowledged and ignored.
 */
import { type AuditActor, type AuditEntry, newAuditEntry } from "../store/audit.ts";
import { type GroupEntry, listGroupEntries, putGroupsIfUnchanged } from "../store/groups.ts";
import type { Group, Member } from "../types.ts";

/** What an installation event changed. */
export interface InstallationOutcome {
  result: "provisioned" | "bound" | "already_bound" | "unbound" | "not_bound" | "ignored";
  groupIds: string[];
}

interface Account {
  id: number;
  login: string;
  type?: string;
}

interface InstallationFacts {
  installationId: number;
  account: Account;
  actor: AuditActor;
}

const ATTEMPTS = 5;

function asAccount(value: unknown): Account | null {
  const account = value as Partial<Account> | null;
  if (typeof account !== "object" || account === null) return null;
  if (typeof account.id !== "number" || typeof account.login !== "string") return null;
  return { id: account.id, login: account.login, type: account.type };
}

/** The installation id, account and sender of an `installation` payload, or null when malformed. */
function readInstallation(payload: Record<string, unknown>): InstallationFacts | null {
  const installation = payload.installation as { id?: unknown; account?: unknown } | undefined;
  const installationId = installation?.id;
  if (typeof installationId !== "number" || !Number.isSafeInteger(installationId)) return null;
  if (installationId <= 0) return null;
  const account = asAccount(installation?.account);
  if (!account) return null;
  const sender = asAccount(payload.sender) ?? account;
  return { installationId, account, actor: { userId: String(sender.id), login: sender.login } };
}

function isOwnedBy(group: Group, account: Account): boolean {
  const login = account.login.toLowerCase();
  return (group.owners ?? []).some((owner) => owner.toLowerCase() === login) ||
    group.members.some((m) => m.role === "owner" && m.userId === String(account.id));
}

function provisionedGroup(facts: InstallationFacts): Group {
  const { account, actor, installationId } = facts;
  const owner: Member = account.type === "User" || account.type === undefined
    ? { userId: String(account.id), login: account.login, role: "owner" }
    : { userId: actor.userId, login: actor.login, role: "owner" };
  return {
    id: `inst-${installationId}`,
    name: account.login,
    members: [owner],
    providers: ["github"],
    installationId,
    owners: [account.login],
  };
}

function audit(facts: InstallationFacts, action: string, groupId: string, now: number): AuditEntry {
  return newAuditEntry({
    actor: facts.actor,
    action,
    groupId,
    target: `installation:${facts.installationId}`,
    detail: {
      installationId: facts.installationId,
      account: facts.account.login,
      source: "webhook",
    },
  }, now);
}

async function bindInstallation(
  kv: Deno.Kv,
  facts: InstallationFacts,
  now: number,
): Promise<InstallationOutcome | null> {
  const entries = await listGroupEntries(kv);
  const bound = entries.filter((e) => e.group.installationId === facts.installationId);
  if (bound.length > 0) return { result: "already_bound", groupIds: bound.map((e) => e.group.id) };

  const owned = entries.filter((e) =>
    e.group.installationId === undefined && isOwnedBy(e.group, facts.account)
  );
  if (owned.length > 0) {
    const writes = owned.map(({ group, versionstamp }) => ({
      group: { ...group, installationId: facts.installationId },
      expected: versionstamp,
    }));
    const audits = owned.map((e) => audit(facts, "installation.bind", e.group.id, now));
    const ok = await putGroupsIfUnchanged(kv, writes, audits);
    return ok ? { result: "bound", groupIds: owned.map((e) => e.group.id) } : null;
  }

  const group = provisionedGroup(facts);
  const existing: GroupEntry | undefined = entries.find((e) => e.group.id === group.id);
  const write = existing
    ? {
      group: { ...existing.group, installationId: facts.installationId },
      expected: existing.versionstamp,
    }
    : { group, expected: null };
  const ok = await putGroupsIfUnchanged(kv, [write], [
    audit(facts, existing ? "installation.bind" : "installation.provision", group.id, now),
  ]);
  return ok ? { result: existing ? "bound" : "provisioned", groupIds: [group.id] } : null;
}

async function unbindInstallation(
  kv: Deno.Kv,
  facts: InstallationFacts,
  now: number,
): Promise<InstallationOutcome | null> {
  const bound = (await listGroupEntries(kv))
    .filter((e) => e.group.installationId === facts.installationId);
  if (bound.length === 0) return { result: "not_bound", groupIds: [] };
  const writes = bound.map(({ group: { installationId: _id, ...group }, versionstamp }) => ({
    group,
    expected: versionstamp,
  }));
  const audits = bound.map((e) => audit(facts, "installation.unbind", e.group.id, now));
  const ok = await putGroupsIfUnchanged(kv, writes, audits);
  return ok ? { result: "unbound", groupIds: bound.map((e) => e.group.id) } : null;
}

/**
 * Applies an `installation` event (see the module comment). Null when the
 * payload lacks the installation id or account.
 */
export async function applyInstallationEvent(
  kv: Deno.Kv,
  action: string | undefined,
  payload: Record<string, unknown>,
  now: number,
): Promise<InstallationOutcome | null> {
  const facts = readInstallation(payload);
  if (!facts) return null;
  if (action !== "created" && action !== "deleted") return { result: "ignored", groupIds: [] };
  const apply = action === "created" ? bindInstallation : unbindInstallation;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const outcome = await apply(kv, facts, now);
    if (outcome) return outcome;
  }
  throw new Error(
    `Cannot apply installation.${action} ${facts.installationId}: groups kept changing`,
  );
}
