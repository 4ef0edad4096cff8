import { useEffect, useState } from "preact/hooks";
import { callApi, groupPath } from "../../../components/groups/api.ts";
import { ConfirmDialog } from "../../../components/groups/ConfirmDialog.tsx";
import {
  announceGroup,
  fetchGroup,
  onGroupChanged,
} from "../../../components/groups/group_events.ts";
import { UntilHydrated } from "../../../components/groups/UntilHydrated.tsx";
import { type Status, StatusMessage } from "../../../components/groups/StatusMessage.tsx";
import {
  CARD,
  CARD_TITLE,
  DANGER_QUIET,
  INPUT,
  MUTED,
  PRIMARY,
} from "../../../components/groups/ui.ts";
import type { Group } from "../../../lib/types.ts";

const STALE = "Someone changed this group since the page was loaded, so nothing was " +
  "saved. The page now has the current version: check it and try again.";

/**
 * A group's name and id (owner): a new id goes through `PUT …/rename` (routes, secret,
 * invites and members follow), a new name alone through `PUT /admin/api/groups/:id`; and
 * deleting the group after typing its id.
 */
export default function GroupSettings(props: { group: Group; etag: string }) {
  const [group, setGroup] = useState(props.group);
  const [etag, setEtag] = useState(props.etag);
  const [name, setName] = useState(props.group.name);
  const [id, setId] = useState(props.group.id);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState("");

  useEffect(() =>
    onGroupChanged((version) => {
      setGroup(version.group);
      setEtag(version.etag);
    }), []);

  /** Takes the group as stored now: someone else changed it, so nothing was saved. */
  const reloadAfterConflict = async () => {
    const current = await fetchGroup(group.id);
    if (!current) return location.reload();
    setGroup(current.group);
    setEtag(current.etag);
    announceGroup(current);
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const newName = name.trim();
    if (!newName) return setStatus({ tone: "error", text: "The name cannot be empty." });
    if (id === group.id && newName === group.name) {
      return setStatus({ tone: "ok", text: "Nothing to change." });
    }
    setBusy(true);
    const answer = id === group.id
      ? await callApi("PUT", groupPath(group.id), { body: { ...group, name: newName }, etag })
      : await callApi("PUT", groupPath(group.id, "/rename"), {
        body: { newId: id, ...(newName === group.name ? {} : { name: newName }) },
      });
    setBusy(false);
    if (answer.status === 409 && id === group.id) {
      await reloadAfterConflict();
      return setStatus({ tone: "error", text: STALE });
    }
    if (!answer.ok) return setStatus({ tone: "error", text: `Not saved: ${answer.error}` });
    location.assign(`/admin/groups/${encodeURIComponent(id)}?notice=renamed`);
  };

  const remove = async () => {
    setBusy(true);
    const answer = await callApi("DELETE", groupPath(group.id), { etag });
    setBusy(false);
    if (answer.status === 409) {
      await reloadAfterConflict();
      return setDeleteError(STALE);
    }
    if (!answer.ok) return setDeleteError(answer.error);
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
          <div class="flex flex-col gap-1">
            <label for="settings-name" class="text-sm font-medium">Name</label>
            <input
              id="settings-name"
              class={INPUT}
              required
              maxLength={100}
              value={name}
              onInput={(event) => setName(event.currentTarget.value)}
            />
          </div>
          <div class="flex flex-col gap-1">
            <label for="settings-id" class="text-sm font-medium">Id</label>
            <input
              id="settings-id"
              class={`${INPUT} font-mono`}
              required
              maxLength={64}
              spellcheck={false}
              autocomplete="off"
              value={id}
              onInput={(event) => setId(event.currentTarget.value)}
            />
          </div>
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
