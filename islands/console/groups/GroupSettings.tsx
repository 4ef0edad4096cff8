import { useState } from "preact/hooks";
import { ConfirmDialog } from "../../../components/groups/ConfirmDialog.tsx";
import { useGroupVersion } from "../../../components/groups/group_events.ts";
import { FormField } from "../../../components/forms/FormField.tsx";
import { UntilHydrated } from "../../../components/groups/UntilHydrated.tsx";
import { type Status, StatusMessage } from "../../../components/groups/StatusMessage.tsx";
import {
  CARD,
  CARD_TITLE,
  DANGER_QUIET,
  FIELD,
  MUTED,
  PRIMARY,
} from "../../../components/groups/ui.ts";
import { tryAdminApi } from "../../../components/api/admin_api.ts";
import type { Group } from "../../../lib/types.ts";

const STALE = "Someone changed this group since the page was loaded, so nothing was " +
  "saved. The page now has the current version: check it and try again.";

/**
 * A group's name and id (owner): a new id goes through `PUT …/rename` (routes, secret,
 * invites and members follow), a new name alone through `PUT /admin/api/groups/:id`; and
 * deleting the group after typing its id.
 */
export default function GroupSettings(props: { group: Group; etag: string }) {
  const stored = useGroupVersion({ group: props.group, etag: props.etag });
  const { group, etag } = stored;
  const [name, setName] = useState(props.group.name);
  const [id, setId] = useState(props.group.id);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState("");

  const save = async (event: Event) => {
    event.preventDefault();
    const newName = name.trim();
    if (!newName) return setStatus({ tone: "error", text: "The name cannot be empty." });
    if (id === group.id && newName === group.name) {
      return setStatus({ tone: "ok", text: "Nothing to change." });
    }
    setBusy(true);
    const answer = id === group.id
      ? await tryAdminApi("PUT /admin/api/groups/{id}", {
        params: { id: group.id },
        body: { ...group, name: newName },
        etag,
      })
      : await tryAdminApi("PUT /admin/api/groups/{id}/rename", {
        params: { id: group.id },
        body: { newId: id, ...(newName === group.name ? {} : { name: newName }) },
      });
    setBusy(false);
    if (!answer.ok && answer.error.status === 409 && id === group.id) {
      await stored.reload();
      return setStatus({ tone: "error", text: STALE });
    }
    if (!answer.ok) return setStatus({ tone: "error", text: `Not saved: ${answer.error.message}` });
    location.assign(`/admin/groups/${encodeURIComponent(id)}?notice=renamed`);
  };

  const remove = async () => {
    setBusy(true);
    const answer = await tryAdminApi("DELETE /admin/api/groups/{id}", {
      params: { id: group.id },
      etag,
    });
    setBusy(false);
    if (!answer.ok && answer.error.status === 409) {
      await stored.reload();
      return setDeleteError(STALE);
    }
    if (!answer.ok) return setDeleteError(answer.error.message);
    location.assign(`/admin/groups?deleted=${encodeURIComponent(group.id)}`);
  };

  return (
    <UntilHydrated>
      <section class={CARD} aria-labelledby="settings-title">
        <h2 id="settings-title" class={CARD_TITLE}>Name and id</h2>
        <p class={`mt-1 ${MUTED}`}>
          Changing the id changes the webhook address: update the senders afterwards. Routes,
          members, invites, the secret and the history follow the group.
        </p>
        <form class="mt-4 grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end" onSubmit={save}>
          <FormField
            look={FIELD}
            id="settings-name"
            label="Name"
            required
            maxLength={100}
            value={name}
            onValue={setName}
          />
          <FormField
            look={FIELD}
            id="settings-id"
            label="Id"
            code
            required
            maxLength={64}
            value={id}
            onValue={setId}
          />
          <button type="submit" class={PRIMARY} disabled={busy}>Save</button>
        </form>
        <StatusMessage status={status} />
        <div class="mt-6 flex flex-col gap-3 border-t border-slate-200 pt-4 sm:flex-row sm:items-center sm:justify-between dark:border-slate-700">
          <p class={MUTED}>
            Deleting removes the group with its routes, fragments, allowed targets, webhook secret
            and invites.
          </p>
          <button
            type="button"
            class={`${DANGER_QUIET} shrink-0`}
            onClick={() => {
              setDeleteError("");
              setDeleting(true);
            }}
          >
            Delete group…
          </button>
        </div>
        <ConfirmDialog
          open={deleting}
          title={`Delete group ${group.name}?`}
          confirmLabel="Delete group"
          typeToConfirm={group.id}
          busy={busy}
          error={deleteError}
          onConfirm={remove}
          onCancel={() => setDeleting(false)}
        >
          Its routes, fragments, allowed targets, webhook secret and invites are deleted, and its
          webhook address stops answering. This cannot be undone.
        </ConfirmDialog>
      </section>
    </UntilHydrated>
  );
}
