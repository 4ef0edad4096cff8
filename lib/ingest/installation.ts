/**
 * GitHub App `installation` events on the global ingress: the payload is read
 * here, and `lib/installations/binding.ts` decides what they bind (`created`)
 * or unbind (`deleted`). Other actions are acknowledged and ignored.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Installation } from "../github/installations.ts";
import {
  applyInstallationCreated,
  applyInstallationDeleted,
  type InstallationEvent,
  type InstallationOutcome,
} from "../installations/binding.ts";

const MAX_LOGIN_LENGTH = 100;

function asAccount(value: unknown): Installation["account"] | null {
  const account = value as Partial<Installation["account"]> | null;
  if (typeof account !== "object" || account === null) return null;
  if (!Number.isSafeInteger(account.id) || typeof account.login !== "string") return null;
  if (account.login === "" || account.login.length > MAX_LOGIN_LENGTH) return null;
  const type = typeof account.type === "string" ? account.type : undefined;
  return { id: account.id!, login: account.login, ...(type ? { type } : {}) };
}

/** The installation and sender of an `installation` payload, or null when malformed. */
function readInstallationEvent(payload: Record<string, unknown>): InstallationEvent | null {
  const installation = payload.installation as { id?: unknown; account?: unknown } | undefined;
  const id = installation?.id;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) return null;
  const account = asAccount(installation?.account);
  if (!account) return null;
  const sender = asAccount(payload.sender);
  return {
    installation: { id, account },
    sender: sender && { userId: String(sender.id), login: sender.login },
  };
}

/**
 * Applies an `installation` event (see `lib/installations/binding.ts`). Null
 * when the payload lacks the installation id or account.
 */
export async function applyInstallationEvent(
  kv: Kv,
  action: string | undefined,
  payload: Record<string, unknown>,
  now: number,
): Promise<InstallationOutcome | null> {
  const event = readInstallationEvent(payload);
  if (!event) return null;
  switch (action) {
    case "created":
      return await applyInstallationCreated(kv, event, now);
    case "deleted":
      return await applyInstallationDeleted(kv, event, now);
    default:
      return { result: "ignored", groupIds: [] };
  }
}
