import { tryAdminApi } from "../../../components/api/admin_api.ts";
import { useState } from "preact/hooks";
import { formatTime } from "../../../components/groups/format.ts";
import { UntilHydrated } from "../../../components/groups/UntilHydrated.tsx";
import { CARD, CARD_TITLE, MUTED, SECONDARY } from "../../../components/groups/ui.ts";
import type { RejectionList, RejectionView } from "../../../lib/admin/rejections.ts";

function senderOf(item: RejectionView): string {
  const parts = [
    item.address,
    item.forwardedFor ? `forwarded for ${item.forwardedFor}` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "address unknown";
}

function Rejection(props: { item: RejectionView }) {
  const { item } = props;
  return (
    <li
      class="border-t border-slate-200 py-3 first:border-t-0 dark:border-slate-700"
      data-testid="rejection"
      data-reason={item.reason}
    >
      <p class="text-sm font-medium text-red-800 dark:text-red-200">{item.words}</p>
      <p class="mt-1 text-sm">
        <span class="font-medium">What to change:</span> {item.fix}
      </p>
      <p class={`mt-1 ${MUTED} break-words`}>
        {formatTime(item.at)} · answered {item.status} ·{" "}
        {item.provider === "unknown" ? "unknown sender" : item.provider} · {senderOf(item)}
        {item.event ? ` · event ${item.event}` : ""}
        {item.unknownGroup ? ` · group “${item.unknownGroup}”` : ""}
        {item.userAgent ? ` · ${item.userAgent}` : ""}
      </p>
    </li>
  );
}

/**
 * The webhook requests an ingress refused, newest first, each with its reason in words and
 * what to change; refreshed on demand from the admin API.
 */
export default function RejectedPanel(props: {
  /** The group whose refusals are listed; null: every group the person can read. */
  groupId: string | null;
  list: RejectionList;
  title: string;
  intro: string;
  headingId: string;
}) {
  const [list, setList] = useState(props.list);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const refresh = async () => {
    setBusy(true);
    const answer = props.groupId === null
      ? await tryAdminApi("GET /admin/api/rejections")
      : await tryAdminApi("GET /admin/api/groups/{id}/rejections", {
        params: { id: props.groupId },
      });
    setBusy(false);
    if (!answer.ok) return setError(`Not refreshed: ${answer.error.message}`);
    setError("");
    setList(answer.data);
  };
  return (
    <section class={CARD} aria-labelledby={props.headingId} data-testid="rejected">
      <div class="flex flex-wrap items-start justify-between gap-3">
        <h2 id={props.headingId} class={CARD_TITLE}>{props.title}</h2>
        <UntilHydrated>
          <button type="button" class={SECONDARY} onClick={refresh} disabled={busy}>
            {busy ? "Refreshing…" : "Refresh"}
          </button>
        </UntilHydrated>
      </div>
      <p class={`mt-1 ${MUTED}`}>
        {props.intro} The list is sampled: at most {list.perMinute}{" "}
        a minute are recorded and the newest {list.keptAtMost} are kept for {list.keptDays} days.
      </p>
      <p
        role="alert"
        class={error
          ? "mt-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
          : "sr-only"}
      >
        {error}
      </p>
      {list.items.length === 0
        ? <p class="mt-3 text-sm" data-testid="rejected-empty">No rejected requests.</p>
        : (
          <ul class="mt-2">
            {list.items.map((item) => <Rejection key={item.id} item={item} />)}
          </ul>
        )}
    </section>
  );
}
