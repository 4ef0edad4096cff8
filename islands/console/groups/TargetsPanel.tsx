import { tryAdminApi } from "../../../components/api/admin_api.ts";
import { useState } from "preact/hooks";
import { formatTime } from "../../../components/groups/format.ts";
import { FormField } from "../../../components/forms/FormField.tsx";
import { UntilHydrated } from "../../../components/groups/UntilHydrated.tsx";
import { type Status, StatusMessage } from "../../../components/groups/StatusMessage.tsx";
import {
  CARD,
  CARD_TITLE,
  DANGER_QUIET,
  FIELD,
  INPUT,
  MUTED,
  PRIMARY,
} from "../../../components/groups/ui.ts";
import type { GroupTargets } from "../../../lib/admin/targets.ts";
import {
  describeTargetRef,
  type TargetRef,
  targetRefKey,
  targetRefOf,
} from "../../../lib/target_ref.ts";

type AllowedTarget = GroupTargets["targets"][number];

const VIA: Record<AllowedTarget["via"], string> = {
  admin: "allowed by a super admin",
  routes: "named in a super admin's route save",
  claim: "claimed from inside the chat",
  upgrade: "used by a route before target ownership existed",
};

/** What the add form's fields make, before the API validates it. */
function refOf(platform: TargetRef["platform"], id: string): TargetRef {
  return platform === "discord"
    ? { platform, channelId: id.trim() }
    : { platform, chatId: id.trim() };
}

/**
 * The chat targets a group's routes may post into, how and when each was allowed, and the
 * route targets refused with the reason. A super admin adds and removes targets
 * (`PUT …/targets` with `If-Match`).
 */
export default function TargetsPanel(
  props: GroupTargets & { groupId: string; etag: string; canEdit: boolean },
) {
  const [targets, setTargets] = useState(props.targets);
  const [refused, setRefused] = useState(props.refused);
  const [etag, setEtag] = useState(props.etag);
  const [platform, setPlatform] = useState<TargetRef["platform"]>("discord");
  const [id, setId] = useState("");
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  const save = async (refs: TargetRef[], done: string) => {
    setBusy(true);
    const answer = await tryAdminApi("PUT /admin/api/groups/{id}/targets", {
      params: { id: props.groupId },
      body: { targets: refs },
      etag,
    });
    if (!answer.ok) {
      setBusy(false);
      const text = answer.error.status === 409
        ? "The allowed targets changed since this page was loaded: reload the page and try again."
        : `Not saved: ${answer.error.message}`;
      return setStatus({ tone: "error", text });
    }
    const fresh = await tryAdminApi("GET /admin/api/groups/{id}/targets", {
      params: { id: props.groupId },
    });
    setBusy(false);
    if (fresh.ok) {
      setTargets(fresh.data.targets);
      setRefused(fresh.data.refused);
      setEtag(fresh.etag ?? etag);
    }
    setId("");
    setStatus({ tone: "ok", text: done });
  };

  const current = targets.map((entry) => targetRefOf(entry.target));
  const add = (event: Event) => {
    event.preventDefault();
    const ref = refOf(platform, id);
    if (current.some((other) => targetRefKey(other) === targetRefKey(ref))) {
      return setStatus({ tone: "error", text: `${describeTargetRef(ref)} is allowed already.` });
    }
    save([...current, ref], `${describeTargetRef(ref)} allowed.`);
  };
  const remove = (ref: TargetRef) =>
    save(
      current.filter((other) => targetRefKey(other) !== targetRefKey(ref)),
      `${describeTargetRef(ref)} removed.`,
    );

  return (
    <UntilHydrated>
      <section class={CARD} aria-labelledby="targets-title">
        <h2 id="targets-title" class={CARD_TITLE}>Allowed chat targets</h2>
        <p class={`mt-1 ${MUTED}`}>
          The group's routes post only into these Discord channels (and their threads) and Telegram
          chats (and their topics). {props.canEdit
            ? "As a super admin you can add and remove them."
            : "A super admin adds them, or someone who manages the chat claims it with /gh subscribe " +
              props.groupId + "."}
        </p>
        {targets.length === 0 ? <p class={`mt-3 ${MUTED}`}>No target is allowed yet.</p> : (
          <ul
            class="mt-3 divide-y divide-slate-200 dark:divide-slate-700"
            data-testid="allowed-targets"
          >
            {targets.map((entry) => (
              <li
                key={targetRefKey(entry.target)}
                class="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between"
              >
                <div class="text-sm">
                  <div class="font-medium break-all">{describeTargetRef(entry.target)}</div>
                  <div class="text-xs text-slate-600 dark:text-slate-300">
                    {VIA[entry.via]}, {formatTime(entry.allowedAt)} by {entry.allowedBy.login}
                  </div>
                </div>
                {props.canEdit && (
                  <button
                    type="button"
                    class={`${DANGER_QUIET} self-start sm:self-auto`}
                    aria-label={`Remove ${describeTargetRef(entry.target)}`}
                    disabled={busy}
                    onClick={() => remove(targetRefOf(entry.target))}
                  >
                    Remove
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {props.canEdit && (
          <form class="mt-4 grid gap-3 sm:grid-cols-[auto_1fr_auto] sm:items-end" onSubmit={add}>
            <div class="flex flex-col gap-1">
              <label for="target-platform" class="text-sm font-medium">Platform</label>
              <select
                id="target-platform"
                class={INPUT}
                value={platform}
                onChange={(event) =>
                  setPlatform(event.currentTarget.value as TargetRef["platform"])}
              >
                <option value="discord">Discord channel</option>
                <option value="telegram">Telegram chat</option>
              </select>
            </div>
            <FormField
              look={FIELD}
              box="flex min-w-0 flex-col gap-1"
              id="target-id"
              label={platform === "discord" ? "Channel id" : "Chat id or @name"}
              code
              required
              maxLength={40}
              value={id}
              onValue={setId}
            />
            <button type="submit" class={PRIMARY} disabled={busy}>Allow target</button>
          </form>
        )}
        <StatusMessage status={status} testId="targets-status" />
        {refused.length > 0 && (
          <div class="mt-6">
            <h3 class="text-sm font-semibold">Refused route targets</h3>
            <p class={`mt-1 ${MUTED}`}>Nothing is sent to these until they are allowed.</p>
            <ul class="mt-2 flex flex-col gap-2" data-testid="refused-targets">
              {refused.map((entry) => (
                <li
                  key={`${entry.routeId}:${targetRefKey(entry.target)}`}
                  class="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
                >
                  <div class="font-medium break-all">
                    Route {entry.routeId}: {describeTargetRef(entry.target)}
                  </div>
                  <div class="mt-1 break-words">{entry.reason}</div>
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
    </UntilHydrated>
  );
}
