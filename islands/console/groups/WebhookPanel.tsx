import { useState } from "preact/hooks";
import { callApi, groupPath } from "../../../components/groups/api.ts";
import { ConfirmDialog } from "../../../components/groups/ConfirmDialog.tsx";
import { CopyButton } from "../../../components/groups/CopyButton.tsx";
import { formatTime } from "../../../components/groups/format.ts";
import { UntilHydrated } from "../../../components/groups/UntilHydrated.tsx";
import { type Status, StatusMessage } from "../../../components/groups/StatusMessage.tsx";
import {
  BADGE,
  BADGE_TONES,
  CARD,
  CARD_TITLE,
  CODE_FIELD,
  DANGER_QUIET,
  MUTED,
  PRIMARY,
  SECONDARY,
} from "../../../components/groups/ui.ts";
import type { WebhookView } from "../../../lib/admin/group_pages.ts";

/**
 * A group's own webhook (owner): its address to copy, whether it has a secret, a new secret
 * shown this once with a copy button, and switching the webhook off.
 */
export default function WebhookPanel(props: { groupId: string; webhook: WebhookView }) {
  const [webhook, setWebhook] = useState(props.webhook);
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [confirm, setConfirm] = useState<"regenerate" | "delete" | null>(null);

  const regenerate = async () => {
    setBusy(true);
    const answer = await callApi<{ secret: string; url: string }>(
      "POST",
      groupPath(props.groupId, "/webhook/regenerate"),
    );
    setBusy(false);
    setConfirm(null);
    if (!answer.ok || !answer.data) {
      return setStatus({ tone: "error", text: `No new secret: ${answer.error}` });
    }
    setSecret(answer.data.secret);
    setWebhook({ url: answer.data.url, enabled: true, createdAt: Date.now() });
    setStatus({ tone: "ok", text: "New secret generated. Copy it now." });
  };

  const disable = async () => {
    setBusy(true);
    const answer = await callApi("DELETE", groupPath(props.groupId, "/webhook"));
    setBusy(false);
    setConfirm(null);
    if (!answer.ok) return setStatus({ tone: "error", text: `Not deleted: ${answer.error}` });
    setSecret(null);
    setWebhook({ url: webhook.url, enabled: false });
    setStatus({ tone: "ok", text: "Webhook deleted: its address answers 404 until a new secret." });
  };

  return (
    <UntilHydrated>
      <section class={CARD} aria-labelledby="webhook-title">
        <div class="flex flex-wrap items-center justify-between gap-2">
          <h2 id="webhook-title" class={CARD_TITLE}>Webhook</h2>
          <span
            class={`${BADGE} ${webhook.enabled ? BADGE_TONES.on : BADGE_TONES.off}`}
            data-testid="webhook-state"
          >
            {webhook.enabled ? "On" : "Off"}
          </span>
        </div>
        <p class={`mt-1 ${MUTED}`}>
          {webhook.enabled
            ? `Events signed with this group's secret are accepted at this address (secret created ${
              formatTime(webhook.createdAt ?? 0)
            }). Only this group's routes see them.`
            : "This address answers 404 until the group has a secret: generate one, then paste both into the sender's webhook settings."}
        </p>
        <label for="webhook-url" class="mt-4 block text-sm font-medium">Payload URL</label>
        <div class="mt-1 flex gap-2">
          <input id="webhook-url" class={CODE_FIELD} readOnly value={webhook.url} />
          <CopyButton text={webhook.url} what="webhook URL" testId="copy-webhook-url" />
        </div>
        {secret !== null && (
          <div
            class="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
            data-testid="secret-reveal"
          >
            <label for="webhook-secret" class="text-sm font-semibold">Secret</label>
            <div class="mt-1 flex gap-2">
              <input
                id="webhook-secret"
                class={CODE_FIELD}
                readOnly
                value={secret}
                data-testid="secret"
              />
              <CopyButton text={secret} what="secret" testId="copy-secret" />
            </div>
            <p class="mt-2 text-sm">
              Copy it now: it will not be shown again. Regenerate to get a new one.
            </p>
            <button type="button" class={`${SECONDARY} mt-2`} onClick={() => setSecret(null)}>
              I have copied it
            </button>
          </div>
        )}
        <div class="mt-4 flex flex-wrap gap-2">
          <button
            type="button"
            class={PRIMARY}
            disabled={busy}
            onClick={() => webhook.enabled ? setConfirm("regenerate") : regenerate()}
          >
            {webhook.enabled ? "Regenerate secret…" : "Generate secret"}
          </button>
          {webhook.enabled && (
            <button
              type="button"
              class={DANGER_QUIET}
              disabled={busy}
              onClick={() => setConfirm("delete")}
            >
              Delete webhook…
            </button>
          )}
        </div>
        <StatusMessage status={status} testId="webhook-status" />
        <ConfirmDialog
          open={confirm === "regenerate"}
          title="Regenerate the secret?"
          confirmLabel="Regenerate secret"
          busy={busy}
          onConfirm={regenerate}
          onCancel={() => setConfirm(null)}
        >
          The current secret stops working at once: senders still using it get 401 until you paste
          the new one into their webhook settings.
        </ConfirmDialog>
        <ConfirmDialog
          open={confirm === "delete"}
          title="Delete the webhook?"
          confirmLabel="Delete webhook"
          busy={busy}
          onConfirm={disable}
          onCancel={() => setConfirm(null)}
        >
          The secret is deleted and the address answers 404: nothing reaches this group through it
          until you generate a new secret.
        </ConfirmDialog>
      </section>
    </UntilHydrated>
  );
}
