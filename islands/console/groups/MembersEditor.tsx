import { useState } from "preact/hooks";
import { ConfirmDialog } from "../../../components/groups/ConfirmDialog.tsx";
import { useGroupVersion } from "../../../components/groups/group_events.ts";
import { UntilHydrated } from "../../../components/groups/UntilHydrated.tsx";
import { type Status, StatusMessage } from "../../../components/groups/StatusMessage.tsx";
import {
  BADGE,
  BADGE_TONES,
  CARD,
  CARD_TITLE,
  DANGER_QUIET,
  INPUT,
  MUTED,
} from "../../../components/groups/ui.ts";
import { tryAdminApi } from "../../../components/api/admin_api.ts";
import type { Group, Member, Role } from "../../../lib/types.ts";

const ROLES: Role[] = ["owner", "admin", "viewer"];
const ROLE_HELP: Record<Role, string> = {
  owner: "members, invites, webhook, rename",
  admin: "routes and fragments",
  viewer: "reads",
};

const WITH_ARTICLE: Record<Role, string> = {
  owner: "an owner",
  admin: "an admin",
  viewer: "a viewer",
};

const CONFLICT = "Someone changed this group since the page was loaded, so nothing was " +
  "saved. The members shown are the current ones now: check them and try again.";

/** The API's refusal in words a person can act on. */
function refusal(error: string): string {
  if (error.includes("at least one owner")) {
    return "Refused: a group needs at least one owner. Make another member an owner first, " +
      "then change or remove this one.";
  }
  return `Refused: ${error}`;
}

/**
 * A group's members and their roles. An owner changes a role or removes a member; each change
 * replaces this group only (`PUT /admin/api/groups/:id` with `If-Match`).
 */
export default function MembersEditor(
  props: { group: Group; etag: string; canEdit: boolean; selfId: string },
) {
  const stored = useGroupVersion({ group: props.group, etag: props.etag });
  const { group, etag } = stored;
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [removing, setRemoving] = useState<Member | null>(null);

  const write = async (members: Member[], done: string, touchesSelf: boolean) => {
    setBusy(true);
    const next = { ...group, members };
    const answer = await tryAdminApi("PUT /admin/api/groups/{id}", {
      params: { id: group.id },
      body: next,
      etag,
    });
    setBusy(false);
    setRemoving(null);
    if (!answer.ok && answer.error.status === 409) {
      if (await stored.reload()) setStatus({ tone: "error", text: CONFLICT });
      return;
    }
    if (!answer.ok) return setStatus({ tone: "error", text: refusal(answer.error.message) });
    if (touchesSelf) return location.reload();
    stored.wrote({ group: next, etag: answer.etag ?? etag });
    setStatus({ tone: "ok", text: done });
  };

  const changeRole = (member: Member, role: Role) =>
    write(
      group.members.map((m) => m.userId === member.userId ? { ...m, role } : m),
      `${member.login} is now ${WITH_ARTICLE[role]}.`,
      member.userId === props.selfId,
    );

  const remove = (member: Member) =>
    write(
      group.members.filter((m) => m.userId !== member.userId),
      `${member.login} was removed from the group.`,
      member.userId === props.selfId,
    );

  return (
    <UntilHydrated>
      <section class={CARD} aria-labelledby="members-title">
        <h2 id="members-title" class={CARD_TITLE}>Members</h2>
        <p class={`mt-1 ${MUTED}`}>
          Owners manage {ROLE_HELP.owner}; admins edit{" "}
          {ROLE_HELP.admin}; viewers only read. A group always keeps at least one owner.
        </p>
        <table class="mt-4 w-full text-left text-sm" data-testid="members">
          <thead class="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-700 dark:text-slate-300">
            <tr>
              <th scope="col" class="py-2 pr-3 font-medium">Member</th>
              <th scope="col" class="py-2 pr-3 font-medium">Role</th>
              {props.canEdit && (
                <th scope="col" class="py-2 font-medium">
                  <span class="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody class="divide-y divide-slate-200 dark:divide-slate-700">
            {group.members.map((member) => (
              <tr key={member.userId} data-testid={`member-${member.login}`}>
                <td class="py-2 pr-3">
                  <div class="font-medium break-all">
                    {member.login}
                    {member.userId === props.selfId && (
                      <span class="ml-1 text-xs font-normal text-slate-600 dark:text-slate-300">
                        (you)
                      </span>
                    )}
                  </div>
                  <div class="text-xs text-slate-600 dark:text-slate-300">id {member.userId}</div>
                </td>
                <td class="py-2 pr-3">
                  {props.canEdit
                    ? (
                      <select
                        class={`${INPUT} w-auto min-w-24`}
                        aria-label={`Role of ${member.login}`}
                        value={member.role}
                        disabled={busy}
                        onChange={(event) => changeRole(member, event.currentTarget.value as Role)}
                      >
                        {ROLES.map((role) => <option key={role} value={role}>{role}</option>)}
                      </select>
                    )
                    : <span class={`${BADGE} ${BADGE_TONES[member.role]}`}>{member.role}</span>}
                </td>
                {props.canEdit && (
                  <td class="py-2 text-right">
                    <button
                      type="button"
                      class={DANGER_QUIET}
                      aria-label={`Remove ${member.login}`}
                      disabled={busy}
                      onClick={() => setRemoving(member)}
                    >
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
        <StatusMessage status={status} testId="members-status" />
        <ConfirmDialog
          open={removing !== null}
          title={`Remove ${removing?.login ?? ""}?`}
          confirmLabel="Remove member"
          busy={busy}
          onConfirm={() => removing && remove(removing)}
          onCancel={() => setRemoving(null)}
        >
          {removing?.userId === props.selfId
            ? "You lose access to this group at once."
            : `${
              removing?.login ?? ""
            } loses access to this group at once. An invite brings them back.`}
        </ConfirmDialog>
      </section>
    </UntilHydrated>
  );
}
