/**
 * Who gets a personal notification about an event, once each: the linked chat accounts of the
 * people its triggers name (`triggers.ts`), every linked member of a team a review is requested
 * from, never the sender, only for kinds the person left on and only when the person's own token
 * reads the repository (`lib/auth/person_access.ts`).
 */
import type { ForgeEvent, Group, Platform } from "../types.ts";
import {
  chatUsersLinkedTo,
  getDiscordLink,
  getTelegramLink,
  normalizeGithubLogin,
} from "../store/auth/links.ts";
import { getNotifySettings, type NotifySettings } from "../store/notify/notify_settings.ts";
import { pullHeadAuthor } from "../store/notify/notify_cache.ts";
import { type Access, canRead, groupReaders, teamMembers } from "../auth/person_access.ts";
import type { Trigger } from "./triggers.ts";
import type { NotifyContext } from "./context.ts";

/** One chat account linked to a GitHub account. */
interface LinkedAccount {
  platform: Platform;
  chatUserId: string;
  userId: string;
}

/** A chat account to notify, and why; or one whose person must link again. */
type Recipient =
  | { account: LinkedAccount; trigger: Trigger; settings: NotifySettings }
  | { account: LinkedAccount; relink: true };

/** Most people one event notifies. */
const MAX_LOGINS = 50;

/** The chat accounts still linked to `login` (lower case), on both platforms. */
async function linkedAccounts(
  ctx: Pick<NotifyContext, "kv">,
  login: string,
): Promise<LinkedAccount[]> {
  const accounts: LinkedAccount[] = [];
  for (const platform of ["telegram", "discord"] as const) {
    for (const chatUserId of await chatUsersLinkedTo(ctx.kv, platform, login)) {
      const link = platform === "discord"
        ? await getDiscordLink(ctx.kv, chatUserId)
        : await getTelegramLink(ctx.kv, chatUserId);
      if (link && normalizeGithubLogin(link.login) === login) {
        accounts.push({ platform, chatUserId, userId: link.userId });
      }
    }
  }
  return accounts;
}

function senderOf(event: ForgeEvent): { id?: string; login?: string } {
  const sender = event.payload.sender as Record<string, unknown> | null | undefined;
  const id = typeof sender?.id === "number" ? String(sender.id) : undefined;
  return { id, login: normalizeGithubLogin(sender?.login) ?? undefined };
}

/**
 * The logins each trigger names; a team's are its members who have a linked chat account, read
 * from GitHub with a token of the receiving group's members (`person_access.ts`).
 */
async function triggersByLogin(
  ctx: NotifyContext,
  repository: string,
  triggers: readonly Trigger[],
  group: Group | null,
): Promise<Map<string, Trigger[]>> {
  const byLogin = new Map<string, Trigger[]>();
  const add = (login: string, trigger: Trigger) => {
    if (!byLogin.has(login) && byLogin.size >= MAX_LOGINS) return;
    byLogin.set(login, [...(byLogin.get(login) ?? []), trigger]);
  };
  for (const trigger of triggers) {
    const who = trigger.who;
    if (who.via === "login") add(who.login, trigger);
    if (who.via === "head") {
      const login = await pullHeadAuthor(ctx.kv, repository.toLowerCase(), who.sha) ??
        who.fallback;
      if (login) add(login, trigger);
    }
    if (who.via === "team") {
      const readers = group ? groupReaders(group) : [];
      for (const login of await teamMembers(ctx, who.team, readers)) {
        if (byLogin.size >= MAX_LOGINS) break;
        if ((await linkedAccounts(ctx, login)).length > 0) add(login, trigger);
      }
    }
  }
  return byLogin;
}

/**
 * Whether a trigger is a verdict on the person's work rather than their own action: a failed
 * check on their pull request is news to them even when their push started it.
 */
function isVerdictOnTheirWork(trigger: Trigger): boolean {
  return trigger.kind === "failed_checks";
}

/**
 * The chat accounts to notify about `event` in `repository` (each once, with its strongest
 * trigger the person left on), and those whose person must link again.
 */
export async function recipientsOf(
  ctx: NotifyContext,
  event: ForgeEvent,
  repository: string,
  triggers: readonly Trigger[],
  group: Group | null,
): Promise<Recipient[]> {
  const sender = senderOf(event);
  const settingsOf = new Map<string, NotifySettings>();
  const accessOf = new Map<string, Access>();
  const recipients: Recipient[] = [];
  const seen = new Set<string>();
  for (const [login, all] of await triggersByLogin(ctx, repository, triggers, group)) {
    for (const account of await linkedAccounts(ctx, login)) {
      const key = `${account.platform}:${account.chatUserId}`;
      const own = login === sender.login || account.userId === sender.id;
      const named = own ? all.filter(isVerdictOnTheirWork) : all;
      if (named.length === 0 || seen.has(key)) continue;
      seen.add(key);
      if (!settingsOf.has(account.userId)) {
        settingsOf.set(account.userId, await getNotifySettings(ctx.kv, account.userId));
      }
      const settings = settingsOf.get(account.userId)!;
      const trigger = named.find((t) => settings.kinds[t.kind]);
      if (settings.paused || !trigger) continue;
      if (!accessOf.has(account.userId)) {
        accessOf.set(account.userId, await canRead(ctx, account.userId, repository));
      }
      const access = accessOf.get(account.userId)!;
      if (access === "yes") recipients.push({ account, trigger, settings });
      if (access === "relink") recipients.push({ account, relink: true });
    }
  }
  return recipients;
}
