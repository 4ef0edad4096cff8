/**
 * Chat users linked to GitHub accounts (the `discord_links` and
 * `telegram_links` collections). The pending request a chat command starts is in
 * `link_requests.ts`; saving a link can use it up in the same commit. The GitHub user's token
 * itself is stored under `["token", userId]`.
 *
 * Each link also has a reverse entry by GitHub login (lower case), written and removed in the
 * same atomic commit as the link, so a notification that names a GitHub user can mention the
 * chat users linked to it. Links saved before the reverse entries existed get theirs when they
 * are saved again (the next sign-in).
 */
import type { Kv, KvEntry, KvKey } from "../backend/types.ts";
import type { Platform } from "../../types.ts";
import {
  discordLinkKey,
  linkByGithubLoginKey,
  linksByGithubLoginPrefix,
  telegramLinkKey,
} from "../keys.ts";
import { addAuditEntry, type AuditEntry, newAuditEntry } from "../telemetry/audit.ts";

/** A Discord user's linked GitHub account. */
export interface DiscordLink {
  discordUserId: string;
  userId: string;
  login: string;
  linkedAt: number;
}

/** A Telegram user's linked GitHub account. */
interface TelegramLink {
  telegramUserId: string;
  userId: string;
  login: string;
  linkedAt: number;
}

/** Longest GitHub login (GitHub allows 39 characters). */
const MAX_LOGIN_LENGTH = 39;

/** GitHub's login rules: letters, digits and single hyphens, not at the start. */
const GITHUB_LOGIN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,38}$/i;

/** At most this many chat users are mentioned for one GitHub login. */
const MAX_USERS_PER_LOGIN = 5;

/** The login as the reverse entries spell it (lower case), or null when it is not a login. */
export function normalizeGithubLogin(login: unknown): string | null {
  return typeof login === "string" && login.length <= MAX_LOGIN_LENGTH &&
      GITHUB_LOGIN.test(login)
    ? login.toLowerCase()
    : null;
}

/** What every link holds: the GitHub account and when it was linked. */
interface ChatLink {
  userId: string;
  login: string;
  linkedAt: number;
}

/**
 * The audit entry of linking or unlinking a chat user: the actor is the GitHub account (or,
 * for an unlink from the console, the person signed in), `via` says where it was done.
 */
export function chatLinkAudit(
  action: "link.create" | "link.delete",
  actor: { userId: string; login: string },
  platform: Platform,
  chatUserId: string,
  via: "github sign-in" | "console" | "chat",
  at: number = Date.now(),
): AuditEntry {
  return newAuditEntry({
    actor: { userId: actor.userId, login: actor.login },
    action,
    target: `${platform}:${chatUserId}`,
    detail: { platform, chatUserId, via },
  }, at);
}

/**
 * Saves a link and its reverse entry in one commit, dropping the reverse entry of the link it
 * replaces; retried when the link changed meanwhile. With `request`, the commit also uses that
 * entry up (deletes it, provided it is unchanged): false, and nothing saved, when it changed or
 * went meanwhile.
 */
async function saveWithIndex(
  kv: Kv,
  platform: Platform,
  key: KvKey,
  chatUserId: string,
  link: ChatLink,
  audit?: AuditEntry,
  request?: KvEntry<unknown>,
): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const previous = await kv.get<ChatLink>(key);
    const op = kv.atomic().check(previous).set(key, link);
    if (request) op.check(request).delete(request.key);
    if (audit) addAuditEntry(op, audit);
    const oldLogin = normalizeGithubLogin(previous.value?.login);
    if (oldLogin) op.delete(linkByGithubLoginKey(platform, oldLogin, chatUserId));
    const login = normalizeGithubLogin(link.login);
    if (login) {
      op.set(linkByGithubLoginKey(platform, login, chatUserId), { linkedAt: link.linkedAt });
    }
    if ((await op.commit()).ok) return true;
    if (request && (await kv.get(request.key)).versionstamp !== request.versionstamp) return false;
  }
  throw new Error("the link changed too often to be saved");
}

/** Deletes a link and its reverse entry in one commit; true when there was one. */
async function deleteWithIndex(
  kv: Kv,
  platform: Platform,
  key: KvKey,
  chatUserId: string,
  auditOf?: (link: ChatLink) => AuditEntry,
): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const previous = await kv.get<ChatLink>(key);
    if (previous.versionstamp === null) return false;
    const op = kv.atomic().check(previous).delete(key);
    if (auditOf) addAuditEntry(op, auditOf(previous.value!));
    const login = normalizeGithubLogin(previous.value?.login);
    if (login) op.delete(linkByGithubLoginKey(platform, login, chatUserId));
    if ((await op.commit()).ok) return true;
  }
  throw new Error("the link changed too often to be deleted");
}

/**
 * Links (or re-links) a Discord user to a GitHub account, with its audit entry when given, using
 * up `request` in the same commit when given (false, nothing saved, when it changed meanwhile).
 */
export async function saveDiscordLink(
  kv: Kv,
  link: DiscordLink,
  audit?: AuditEntry,
  request?: KvEntry<unknown>,
): Promise<boolean> {
  const key = discordLinkKey(link.discordUserId);
  return await saveWithIndex(kv, "discord", key, link.discordUserId, link, audit, request);
}

/** The Discord user's link, or null. */
export async function getDiscordLink(
  kv: Kv,
  discordUserId: string,
): Promise<DiscordLink | null> {
  return (await kv.get<DiscordLink>(discordLinkKey(discordUserId))).value;
}

/** Links (or re-links) a Telegram user to a GitHub account, as `saveDiscordLink` does. */
export async function saveTelegramLink(
  kv: Kv,
  link: TelegramLink,
  audit?: AuditEntry,
  request?: KvEntry<unknown>,
): Promise<boolean> {
  const key = telegramLinkKey(link.telegramUserId);
  return await saveWithIndex(kv, "telegram", key, link.telegramUserId, link, audit, request);
}

/** The Telegram user's link, or null. */
export async function getTelegramLink(
  kv: Kv,
  telegramUserId: string,
): Promise<TelegramLink | null> {
  return (await kv.get<TelegramLink>(telegramLinkKey(telegramUserId))).value;
}

/** Removes a Discord user's link (audited as `auditOf` says); true when there was one. */
export async function deleteDiscordLink(
  kv: Kv,
  discordUserId: string,
  auditOf?: (link: ChatLink) => AuditEntry,
): Promise<boolean> {
  const key = discordLinkKey(discordUserId);
  return await deleteWithIndex(kv, "discord", key, discordUserId, auditOf);
}

/** Removes a Telegram user's link (audited as `auditOf` says); true when there was one. */
export async function deleteTelegramLink(
  kv: Kv,
  telegramUserId: string,
  auditOf?: (link: ChatLink) => AuditEntry,
): Promise<boolean> {
  const key = telegramLinkKey(telegramUserId);
  return await deleteWithIndex(kv, "telegram", key, telegramUserId, auditOf);
}

/**
 * The chat users of `platform` linked to the GitHub login `login` (any case), newest link
 * first, at most five; none for a value that is not a GitHub login.
 */
export async function chatUsersLinkedTo(
  kv: Kv,
  platform: Platform,
  login: string,
): Promise<string[]> {
  const normalized = normalizeGithubLogin(login);
  if (!normalized) return [];
  const found: { chatUserId: string; linkedAt: number }[] = [];
  const entries = kv.list<{ linkedAt: number }>(
    { prefix: linksByGithubLoginPrefix(platform, normalized) },
    { limit: 50 },
  );
  for await (const entry of entries) {
    found.push({ chatUserId: String(entry.key.at(-1)), linkedAt: entry.value.linkedAt });
  }
  return found.sort((a, b) => b.linkedAt - a.linkedAt)
    .slice(0, MAX_USERS_PER_LOGIN)
    .map((item) => item.chatUserId);
}
