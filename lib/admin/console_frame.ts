/**
 * What every console page's frame shows (the header's user and group switcher), and the
 * overview's first-run checklist, read with the person's rights: a super admin sees every
 * group, anyone else the groups they belong to.
 */
import type { Principal } from "../auth/principal.ts";
import type { Context } from "../fresh/mod.ts";
import { isId } from "../ids.ts";
import type { State } from "../state.ts";
import { type GroupEntry, readGroupSet } from "../store/config/group_set.ts";
import { readSetupProgress, type SetupProgress } from "../store/config/setup_progress.ts";

export type { SetupProgress } from "../store/config/setup_progress.ts";

/** The header's content: who is signed in, their groups, and the group the page is about. */
interface ConsoleFrame {
  /** Absent when nobody is signed in (the forbidden notice is shown without a session). */
  user?: { login: string; superAdmin: boolean; debug: boolean };
  groups: { id: string; name: string }[];
  /** The group named by the page's `?group=` parameter, when the person can read it. */
  currentGroup?: string;
}

function readableEntries(principal: Principal, entries: readonly GroupEntry[]): GroupEntry[] {
  return principal.superAdmin
    ? [...entries]
    : entries.filter((entry) => principal.roles.has(entry.group.id));
}

async function frameAndEntries(ctx: Context<State>) {
  const principal = ctx.state.principal ?? null;
  const entries = principal
    ? readableEntries(principal, (await readGroupSet(ctx.state.kv)).entries)
    : [];
  const requested = ctx.url.searchParams.get("group");
  const frame: ConsoleFrame = {
    user: principal
      ? { login: principal.login, superAdmin: principal.superAdmin, debug: principal.debug }
      : undefined,
    groups: entries.map(({ group }) => ({ id: group.id, name: group.name })),
    currentGroup: isId("group", requested) && entries.some((e) => e.group.id === requested)
      ? requested
      : undefined,
  };
  return { principal, frame, entries };
}

/** The frame of a console page for the request's principal. */
export async function readConsoleFrame(ctx: Context<State>): Promise<ConsoleFrame> {
  return (await frameAndEntries(ctx)).frame;
}

/**
 * The overview's frame, and how far the person's groups are through the first-run path
 * (null once an event was delivered: the checklist is done).
 */
export async function readOverview(
  ctx: Context<State>,
): Promise<{ frame: ConsoleFrame; setup: SetupProgress | null }> {
  const { principal, frame, entries } = await frameAndEntries(ctx);
  const progress = await readSetupProgress(ctx.state.kv, {
    groups: entries.map((entry) => ({ id: entry.group.id, internalId: entry.internalId })),
    everything: principal?.superAdmin ?? false,
  });
  return { frame, setup: progress.delivery ? null : progress };
}
