import { tryAdminApi } from "../../../components/api/admin_api.ts";
import { useState } from "preact/hooks";
import { ConfirmDialog } from "../../../components/groups/ConfirmDialog.tsx";
import { CopyButton } from "../../../components/groups/CopyButton.tsx";
import { formatTime, timeUntil } from "../../../components/groups/format.ts";
import { UntilHydrated } from "../../../components/groups/UntilHydrated.tsx";
import { type Status, StatusMessage } from "../../../components/groups/StatusMessage.tsx";
import {
  BADGE,
  BADGE_TONES,
  CARD,
  CARD_TITLE,
  CODE_FIELD,
  DANGER_QUIET,
  INPUT,
  MUTED,
  PRIMARY,
} from "../../../components/groups/ui.ts";
import type { InviteView } from "../../../lib/admin/group_pages.ts";

type InviteRole = InviteView["role"];

/**
 * A group's invites (owner): a new single-use link for a role, with a copy button; the
 * pending links with their expiry, each revocable.
 */
export default function InvitesPanel(
  props: { groupId: string; invites: InviteView[]; self: { userId: string; login: string } },
) {
  const [invites, setInvites] = useState(props.invites);
  const [role, setRole] = useState<InviteRole>("viewer");
  const [fresh, setFresh] = useState<InviteView | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [revoking, setRevoking] = useState<InviteView | null>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const answer = await tryAdminApi("POST /admin/api/groups/{id}/invites", {
      params: { id: props.groupId },
      body: { role },
    });
    setBusy(false);
    if (!answer.ok) {
      return setStatus({ tone: "error", text: `No invite created: ${answer.error.message}` });
    }
    const invite: InviteView = { ...answer.data, createdBy: props.self, createdAt: Date.now() };
    setInvites([invite, ...invites]);
    setFresh(invite);
    setStatus({ tone: "ok", text: `Invite link for a new ${invite.role} created.` });
  };

  const revoke = async (invite: InviteView) => {
    setBusy(true);
    const answer = await tryAdminApi("DELETE /admin/api/invites/{token}", {
      params: { token: invite.token },
    });
    setBusy(false);
    setRevoking(null);
    if (!answer.ok && answer.error.status !== 404) {
      return setStatus({ tone: "error", text: `Not revoked: ${answer.error.message}` });
    }
    setInvites(invites.filter((other) => other.token !== invite.token));
    if (fresh?.token === invite.token) setFresh(null);
    setStatus({
      tone: "ok",
      text: answer.ok ? "Invite revoked." : "That invite was already used or expired.",
    });
  };

  return (
    <UntilHydrated>
      <section class={CARD} aria-labelledby="invites-title">
        <h2 id="invites-title" class={CARD_TITLE}>Invites</h2>
        <p class={`mt-1 ${MUTED}`}>
          An invite link works once and for 7 days. Whoever opens it signs in with GitHub and joins
          with the role it grants; make them an owner afterwards if they need to be.
        </p>
        <form class="mt-4 flex flex-wrap items-end gap-3" onSubmit={create}>
          <div class="flex flex-col gap-1">
            <label for="invite-role" class="text-sm font-medium">Role</label>
            <select
              id="invite-role"
              class={`${INPUT} w-auto`}
              value={role}
              onChange={(event) => setRole(event.currentTarget.value as InviteRole)}
            >
              <option value="viewer">viewer</option>
              <option value="admin">admin</option>
            </select>
          </div>
          <button type="submit" class={PRIMARY} disabled={busy}>Create invite link</button>
        </form>
        {fresh && (
          <div
            class="mt-4 rounded-md border border-indigo-200 bg-indigo-50 p-3 dark:border-indigo-800 dark:bg-indigo-950"
            data-testid="new-invite"
          >
            <label for="new-invite-url" class="text-sm font-medium">
              New invite link ({fresh.role}): send it to the person
            </label>
            <div class="mt-2 flex gap-2">
              <input id="new-invite-url" class={CODE_FIELD} readOnly value={fresh.url} />
              <CopyButton text={fresh.url} what="new invite link" testId="copy-new-invite" />
            </div>
          </div>
        )}
        <StatusMessage status={status} testId="invites-status" />
        <h3 class="mt-6 text-sm font-semibold">Pending</h3>
        {invites.length === 0 ? <p class={`mt-2 ${MUTED}`}>No pending invites.</p> : (
          <ul
            class="mt-2 divide-y divide-slate-200 dark:divide-slate-700"
            data-testid="pending-invites"
          >
            {invites.map((invite) => (
              <li
                key={invite.token}
                class="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <div class="text-sm">
                  <span class={`${BADGE} ${BADGE_TONES[invite.role]}`}>{invite.role}</span> by{" "}
                  {invite.createdBy.login}
                  <div class="text-xs text-slate-600 dark:text-slate-300">
                    expires {formatTime(invite.expiresAt)} ({timeUntil(invite.expiresAt)})
                  </div>
                </div>
                <div class="flex gap-2">
                  <CopyButton
                    text={invite.url}
                    what={`invite link for ${invite.role}, expires ${formatTime(invite.expiresAt)}`}
                  />
                  <button
                    type="button"
                    class={DANGER_QUIET}
                    aria-label={`Revoke ${invite.role} invite expiring ${
                      formatTime(invite.expiresAt)
                    }`}
                    disabled={busy}
                    onClick={() => setRevoking(invite)}
                  >
                    Revoke
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
        <ConfirmDialog
          open={revoking !== null}
          title="Revoke this invite?"
          confirmLabel="Revoke invite"
          busy={busy}
          onConfirm={() => revoking && revoke(revoking)}
          onCancel={() => setRevoking(null)}
        >
          The link stops working at once; nobody can join with it any more.
        </ConfirmDialog>
      </section>
    </UntilHydrated>
  );
}
