import { tryAdminApi } from "../../../components/api/admin_api.ts";
import { useId, useState } from "preact/hooks";
import { ActiveSecrets } from "../../../components/groups/ActiveSecrets.tsx";
import { ConfirmDialog } from "../../../components/groups/ConfirmDialog.tsx";
import { CopyButton } from "../../../components/groups/CopyButton.tsx";
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
  SECONDARY,
} from "../../../components/groups/ui.ts";
import type { WebhookView } from "../../../lib/admin/group_pages.ts";

/** How long the replaced secret may keep working, as the regenerate dialog offers it. */
const GRACE_CHOICES: [seconds: number, label: string][] = [
  [0, "Not at all: it stops at once"],
  [60 * 60, "1 hour"],
  [24 * 60 * 60, "24 hours"],
  [3 * 24 * 60 * 60, "3 days"],
  [7 * 24 * 60 * 60, "7 days"],
];
const DEFAULT_GRACE = 24 * 60 * 60;

/**
 * A group's own webhook (owner): its address to copy, its active secrets with when they were
 * last used, a new secret shown this once with a copy button (the replaced one keeps working
 * for the grace period chosen, and can be revoked early), and switching the webhook off.
 */
export default function WebhookPanel(props: { groupId: string; webhook: WebhookView }) {
  const [webhook, setWebhook] = useState(props.webhook);
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [confirm, setConfirm] = useState<"regenerate" | "revoke" | "delete" | null>(null);
  const [graceSeconds, setGraceSeconds] = useState(DEFAULT_GRACE);
  const graceId = useId();

  const regenerate = async () => {
    setBusy(true);
    const answer = await tryAdminApi("POST /admin/api/groups/{id}/webhook/regenerate", {
      params: { id: props.groupId },
      body: webhook.enabled ? { graceSeconds } : {},
    });
    setBusy(false);
    setConfirm(null);
    if (!answer.ok) {
      return setStatus({ tone: "error", text: `No new secret: ${answer.error.message}` });
    }
    const { previousExpiresAt } = answer.data;
    setSecret(answer.data.secret);
    setWebhook({
      url: answer.data.url,
      enabled: true,
      createdAt: Date.now(),
      ...(previousExpiresAt === undefined ? {} : {
        previous: {
          createdAt: webhook.createdAt ?? 0,
          expiresAt: previousExpiresAt,
          ...(webhook.lastUsedAt === undefined ? {} : { lastUsedAt: webhook.lastUsedAt }),
        },
      }),
    });
    setStatus({ tone: "ok", text: "New secret generated. Copy it now." });
  };

  const revoke = async () => {
    setBusy(true);
    const answer = await tryAdminApi("DELETE /admin/api/groups/{id}/webhook/previous", {
      params: { id: props.groupId },
    });
    setBusy(false);
    setConfirm(null);
    if (!answer.ok) {
      return setStatus({ tone: "error", text: `Not revoked: ${answer.error.message}` });
    }
    const { previous: _revoked, ...rest } = webhook;
    setWebhook(rest);
    setStatus({ tone: "ok", text: "Previous secret revoked: only the current one works now." });
  };

  const disable = async () => {
    setBusy(true);
    const answer = await tryAdminApi("DELETE /admin/api/groups/{id}/webhook", {
      params: { id: props.groupId },
    });
    setBusy(false);
    setConfirm(null);
    if (!answer.ok) {
      return setStatus({ tone: "error", text: `Not deleted: ${answer.error.message}` });
    }
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
            ? "Events signed with one of this group's active secrets are accepted at this address. Only this group's routes see them."
            : "This address answers 404 until the group has a secret: generate one, then paste both into the sender's webhook settings."}
        </p>
        <label for="webhook-url" class="mt-4 block text-sm font-medium">Payload URL</label>
        <div class="mt-1 flex gap-2">
          <input id="webhook-url" class={CODE_FIELD} readOnly value={webhook.url} />
          <CopyButton text={webhook.url} what="webhook URL" testId="copy-webhook-url" />
        </div>
        <ActiveSecrets webhook={webhook} busy={busy} onRevoke={() => setConfirm("revoke")} />
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
            <button
              type="button"
              class={`${SECONDARY} mt-2`}
              onClick={() => {
                setSecret(null);
                setStatus(null);
              }}
            >
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
          <p>
            Senders still using the current secret keep working for the time chosen here; paste the
            new secret into their webhook settings before it ends.
          </p>
          <label for={graceId} class="mt-3 block font-medium">
            Keep the current secret working for
          </label>
          <select
            id={graceId}
            class={`${INPUT} mt-1`}
            value={String(graceSeconds)}
            onChange={(event) => setGraceSeconds(Number(event.currentTarget.value))}
            data-testid="grace-period"
          >
            {GRACE_CHOICES.map(([seconds, label]) => (
              <option key={seconds} value={String(seconds)}>{label}</option>
            ))}
          </select>
        </ConfirmDialog>
        <ConfirmDialog
          open={confirm === "revoke"}
          title="Revoke the previous secret?"
          confirmLabel="Revoke previous secret"
          busy={busy}
          onConfirm={revoke}
          onCancel={() => setConfirm(null)}
        >
          The previous secret stops working now: senders still signing with it get 401.
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
