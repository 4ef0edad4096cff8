import type { WebhookInfo } from "../../lib/admin/webhook.ts";
import { formatTime, timeUntil } from "./format.ts";
import { BADGE, BADGE_TONES, DANGER_QUIET, MUTED } from "./ui.ts";

function lastUsed(at: number | undefined): string {
  return at === undefined ? "not used yet" : `last used ${formatTime(at)}`;
}

/**
 * A group's active webhook secrets (never their values): the current one and, during its grace
 * period, the one it replaced, each with when it was made and last used; the replaced one with
 * a Revoke button.
 */
export function ActiveSecrets(props: {
  webhook: WebhookInfo;
  busy: boolean;
  onRevoke(): void;
}) {
  const { webhook } = props;
  if (!webhook.enabled) return null;
  const previous = webhook.previous;
  return (
    <div class="mt-4">
      <h3 class="text-sm font-medium">Active secrets</h3>
      <ul class="mt-1 flex flex-col gap-2 text-sm" data-testid="active-secrets">
        <li class="flex flex-wrap items-center gap-2" data-testid="secret-current">
          <span class={`${BADGE} ${BADGE_TONES.on}`}>Current</span>
          <span class={MUTED}>
            created {formatTime(webhook.createdAt ?? 0)}, {lastUsed(webhook.lastUsedAt)}
          </span>
        </li>
        {previous && (
          <li class="flex flex-wrap items-center gap-2" data-testid="secret-previous">
            <span class={`${BADGE} ${BADGE_TONES.on}`}>Previous</span>
            <span class={MUTED}>
              created {formatTime(previous.createdAt)}, {lastUsed(previous.lastUsedAt)}; works until
              {" "}
              {formatTime(previous.expiresAt)} ({timeUntil(previous.expiresAt)})
            </span>
            <button
              type="button"
              class={DANGER_QUIET}
              disabled={props.busy}
              onClick={props.onRevoke}
              data-testid="revoke-previous"
            >
              Revoke previous secret…
            </button>
          </li>
        )}
      </ul>
    </div>
  );
}
