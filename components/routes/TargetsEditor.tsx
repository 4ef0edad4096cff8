/**
 * A route's targets: each a Discord channel (and optional thread) or a Telegram chat (and
 * optional topic), checked as typed with the API's messages; the group's allowed channels
 * and chats are suggested. Also the Discord role ids the route mentions.
 */
import type { DraftProblems, TargetDraft } from "../../lib/console/route_draft.ts";
import { MAX_TARGETS, targetFields } from "../../lib/console/route_draft.ts";
import type { TargetRef } from "../../lib/target_ref.ts";
import type { Platform } from "../../lib/types.ts";
import { Icon } from "./Icon.tsx";
import { ChipsInput } from "./ChipsInput.tsx";
import { BUTTON, ERROR, INPUT, LABEL, MUTED } from "./ui.tsx";

const WARNING = "text-xs text-amber-800 dark:text-amber-200";

/** What a target of a platform this instance has no bot token for is told. */
const PLATFORM_WARNINGS: Record<Platform, string> = {
  discord: "Discord is not configured on this Switchyard: set DISCORD_BOT_TOKEN and restart it. " +
    "Messages for this target wait until then.",
  telegram: "Telegram is not configured on this Switchyard: set TELEGRAM_BOT_TOKEN and restart " +
    "it. Messages for this target wait until then.",
};

function Field(
  props: {
    id: string;
    label: string;
    value: string;
    problem?: string;
    placeholder: string;
    list?: string;
    hint?: string;
    readOnly: boolean;
    onInput: (value: string) => void;
  },
) {
  const errorId = `${props.id}-error`;
  return (
    <div class="flex min-w-40 flex-1 flex-col gap-0.5">
      <label for={props.id} class={LABEL}>{props.label}</label>
      <input
        id={props.id}
        class={`${INPUT} font-mono`}
        value={props.value}
        list={props.list}
        placeholder={props.placeholder}
        spellcheck={false}
        autocomplete="off"
        inputMode="text"
        disabled={props.readOnly}
        aria-invalid={props.problem ? true : undefined}
        aria-describedby={props.problem ? errorId : undefined}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      {props.problem && <span id={errorId} class={ERROR}>{props.problem}</span>}
    </div>
  );
}

/** The targets list and the role ids. */
export function TargetsEditor(
  props: {
    targets: TargetDraft[];
    roleIds: string[];
    problems: DraftProblems;
    allowed: TargetRef[];
    /** Whether this instance can post to each platform; a target of one it cannot is flagged. */
    platforms: Record<Platform, boolean>;
    readOnly: boolean;
    onTargets: (targets: TargetDraft[], focus?: string) => void;
    onRoleIds: (ids: string[]) => void;
  },
) {
  const { targets, problems } = props;
  const update = (index: number, change: Partial<TargetDraft>) =>
    props.onTargets(targets.map((target, i) => i === index ? { ...target, ...change } : target));
  const discordAllowed = props.allowed.flatMap((t) =>
    t.platform === "discord" ? [t.channelId] : []
  );
  const telegramAllowed = props.allowed.flatMap((t) => t.platform === "telegram" ? [t.chatId] : []);
  const roleProblems = new Map<number, string>();
  props.roleIds.forEach((_, index) => {
    const problem = problems.get(`discordRoleIds[${index}]`);
    if (problem) roleProblems.set(index, problem);
  });
  const hasDiscord = targets.some((target) => target.platform === "discord");
  return (
    <div class="flex flex-col gap-3">
      <datalist id="allowed-discord">
        {discordAllowed.map((id) => <option key={id} value={id} />)}
      </datalist>
      <datalist id="allowed-telegram">
        {telegramAllowed.map((id) => <option key={id} value={id} />)}
      </datalist>
      <ol class="flex flex-col gap-3" aria-label="Targets">
        {targets.map((target, index) => {
          const fields = targetFields(target.platform);
          const at = (field: string) => `targets[${index}].${field}`;
          const rowProblem = problems.get(`targets[${index}]`);
          return (
            <li
              key={index}
              data-testid="target"
              class="rounded-md border border-slate-200 p-3 dark:border-slate-700"
            >
              <div class="flex flex-wrap items-end gap-2">
                <label class="flex w-36 flex-col gap-0.5">
                  <span class={LABEL}>Platform</span>
                  <select
                    id={`target-${index}-platform`}
                    class={INPUT}
                    value={target.platform}
                    disabled={props.readOnly}
                    onChange={(event) =>
                      update(index, {
                        platform: event.currentTarget.value as TargetDraft["platform"],
                      })}
                  >
                    <option value="discord">Discord</option>
                    <option value="telegram">Telegram</option>
                  </select>
                </label>
                <Field
                  id={`target-${index}-place`}
                  label={target.platform === "discord" ? "Channel id" : "Chat id or @channel"}
                  value={target.place}
                  placeholder={target.platform === "discord"
                    ? "123456789012345678"
                    : "-1001234567890"}
                  list={target.platform === "discord" ? "allowed-discord" : "allowed-telegram"}
                  problem={problems.get(at(fields.place))}
                  readOnly={props.readOnly}
                  onInput={(place) => update(index, { place })}
                />
                <Field
                  id={`target-${index}-sub`}
                  label={target.platform === "discord"
                    ? "Thread id (optional)"
                    : "Topic id (optional)"}
                  value={target.sub}
                  placeholder={target.platform === "discord"
                    ? "thread in the channel"
                    : "forum topic"}
                  problem={problems.get(at(fields.sub))}
                  readOnly={props.readOnly}
                  onInput={(sub) => update(index, { sub })}
                />
                {!props.readOnly && targets.length > 1 && (
                  <button
                    type="button"
                    class={`${BUTTON.icon} text-red-700 dark:text-red-300`}
                    aria-label={`Remove target ${index + 1}`}
                    onClick={() =>
                      props.onTargets(
                        targets.filter((_, i) => i !== index),
                        `target-${Math.max(0, index - 1)}-place`,
                      )}
                  >
                    <Icon name="close" />
                  </button>
                )}
              </div>
              {rowProblem && <p class={`mt-2 ${ERROR}`}>{rowProblem}</p>}
              {!props.platforms[target.platform] && (
                <p class={`mt-2 ${WARNING}`} data-testid="platform-not-configured">
                  {PLATFORM_WARNINGS[target.platform]}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      {problems.get("targets") && <p class={ERROR}>{problems.get("targets")}</p>}
      {!props.readOnly && (
        <div>
          <button
            type="button"
            class={`${BUTTON.secondary} px-2 py-1 text-xs`}
            disabled={targets.length >= MAX_TARGETS}
            onClick={() =>
              props.onTargets(
                [...targets, { platform: "discord", place: "", sub: "" }],
                `target-${targets.length}-place`,
              )}
          >
            + Target
          </button>
          {targets.length >= MAX_TARGETS && (
            <span class={`ml-2 text-xs ${MUTED}`}>At most {MAX_TARGETS} targets.</span>
          )}
        </div>
      )}
      {(hasDiscord || props.roleIds.length > 0) && (
        <div class="flex flex-col gap-0.5">
          <span class={LABEL}>Discord roles to mention (ids, optional)</span>
          <ChipsInput
            id="role-ids"
            label="Discord role ids"
            values={props.roleIds}
            placeholder="role id, then Enter"
            problems={roleProblems}
            problem={problems.get("discordRoleIds")}
            disabled={props.readOnly}
            onChange={props.onRoleIds}
          />
        </div>
      )}
    </div>
  );
}
