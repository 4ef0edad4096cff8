import { tryAdminApi } from "../../../components/api/admin_api.ts";
import { useState } from "preact/hooks";
import { UntilHydrated } from "../../../components/groups/UntilHydrated.tsx";
import { type Status, StatusMessage } from "../../../components/groups/StatusMessage.tsx";
import { CARD, CARD_TITLE, INPUT, MUTED, PRIMARY } from "../../../components/groups/ui.ts";

const ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A group id made from a name: `Backend Team` → `backend-team`. */
function idFromName(name: string): string {
  return name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")
    .slice(0, 64);
}

/**
 * Creating a group (super admin): a name and an id (suggested from the name). The creator is
 * its first owner; `POST /admin/api/groups` creates it without touching any other group.
 */
export default function CreateGroupForm(props: { self: { userId: string; login: string } }) {
  const [name, setName] = useState("");
  const [id, setId] = useState("");
  const [idEdited, setIdEdited] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const idProblem = id !== "" && !ID_PATTERN.test(id)
    ? "Use 1-64 lower-case letters, digits, _ or -, starting with a letter or digit."
    : "";

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!name.trim() || !id || idProblem) {
      setStatus({ tone: "error", text: "Give the group a name and a valid id." });
      return;
    }
    setBusy(true);
    const answer = await tryAdminApi("POST /admin/api/groups", {
      body: { id, name: name.trim(), members: [{ ...props.self, role: "owner" }] },
    });
    setBusy(false);
    if (!answer.ok) {
      setStatus({ tone: "error", text: `Could not create the group: ${answer.error.message}` });
      return;
    }
    location.assign(`/admin/groups/${encodeURIComponent(id)}?created=1`);
  };

  return (
    <UntilHydrated>
      <section class={CARD} aria-labelledby="create-group-title">
        <h2 id="create-group-title" class={CARD_TITLE}>Create a group</h2>
        <p class={`mt-1 ${MUTED}`}>
          A group holds routes, members and its own webhook address. You become its first owner;
          invite others from the group's page.
        </p>
        <form class="mt-4 grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start" onSubmit={submit}>
          <div class="flex flex-col gap-1">
            <label for="group-name" class="text-sm font-medium">Name</label>
            <input
              id="group-name"
              class={INPUT}
              required
              maxLength={100}
              value={name}
              onInput={(event) => {
                const value = event.currentTarget.value;
                setName(value);
                if (!idEdited) setId(idFromName(value));
              }}
            />
          </div>
          <div class="flex flex-col gap-1">
            <label for="group-id" class="text-sm font-medium">Id</label>
            <input
              id="group-id"
              class={`${INPUT} font-mono`}
              required
              maxLength={64}
              spellcheck={false}
              autocomplete="off"
              aria-invalid={idProblem ? true : undefined}
              aria-describedby="group-id-help"
              value={id}
              onInput={(event) => {
                setId(event.currentTarget.value);
                setIdEdited(true);
              }}
            />
            <p
              id="group-id-help"
              class={idProblem
                ? "text-xs text-red-700 dark:text-red-300"
                : "text-xs text-slate-600 dark:text-slate-300"}
            >
              {idProblem || "Part of the webhook address: /webhook/<id>."}
            </p>
          </div>
          <button type="submit" class={`${PRIMARY} sm:mt-6`} disabled={busy}>
            {busy ? "Creating…" : "Create group"}
          </button>
        </form>
        <StatusMessage status={status} />
      </section>
    </UntilHydrated>
  );
}
