import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
import type { Toast } from "../../components/layout/toast.ts";
import {
  CARD,
  DANGER_BUTTON,
  MUTED,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
} from "../../components/layout/ui.ts";
import { loadAccount, unlinkChatUser } from "../../lib/admin/account.ts";
import { readConsoleFrame } from "../../lib/admin/console_frame.ts";
import { writePreferences } from "../../lib/admin/preferences.ts";
import {
  readPersonalNotifications,
  settingsFromForm,
  writePersonalNotifications,
} from "../../lib/admin/personal_notifications.ts";
import { PersonalNotificationsForm } from "../../components/account/PersonalNotificationsForm.tsx";
import { CSRF_FIELD, requireCsrfToken } from "../../lib/auth/access.ts";
import { principalOf } from "../../lib/auth/principal.ts";
import { page } from "../../lib/fresh/mod.ts";
import { readFormBody } from "../../lib/http_body.ts";
import { requireId } from "../../lib/http_guards.ts";
import { FORM_BODY_BYTES } from "../../lib/limits.ts";
import { define } from "../../lib/state.ts";
import { listMyReminders } from "../../lib/admin/reminders.ts";
import { RemindersCard } from "../../components/reminders/RemindersCard.tsx";

const NOTICES = new Map<string, Toast>([
  ["saved", { message: "Settings saved.", tone: "success" }],
  ["unlinked", { message: "Chat account unlinked.", tone: "success" }],
  ["missing", { message: "That chat account is not linked to you.", tone: "error" }],
  ["notify_saved", { message: "Personal notifications saved.", tone: "success" }],
  ["notify_invalid", { message: "Quiet hours need an IANA time zone and HH:MM.", tone: "error" }],
  ["reminder-added", { message: "Reminder added.", tone: "success" }],
  ["reminder-removed", { message: "Reminder removed.", tone: "success" }],
]);

/**
 * The signed-in person's account: the Discord and Telegram accounts linked to their GitHub
 * account (each can be unlinked here), and their own settings. Changes are form posts with
 * the session's CSRF token, answered by a redirect back here.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    const [account, frame, personal, { reminders }] = await Promise.all([
      loadAccount(ctx.state.kv, principal),
      readConsoleFrame(ctx),
      readPersonalNotifications(ctx.state.kv, principal),
      listMyReminders(ctx.state.kv, principal),
    ]);
    return page({ account, frame, personal, csrf: principal.csrfToken, reminders }, {
      headers: { "cache-control": "no-store" },
    });
  },
  async POST(ctx) {
    const principal = principalOf(ctx);
    const form = await readFormBody(ctx.req, { maxBytes: FORM_BODY_BYTES });
    requireCsrfToken(principal, form);
    const kv = ctx.state.kv;
    if (form.get("intent") === "unlink") {
      const platform = form.get("platform") === "telegram" ? "telegram" : "discord";
      const chatUserId = requireId("chatUserId", form.get("chatUserId"), "chatUserId");
      const done = await unlinkChatUser(kv, principal, platform, chatUserId);
      return ctx.redirect(`/admin/account?done=${done ? "unlinked" : "missing"}`, 303);
    }
    if (form.get("intent") === "notify") {
      const settings = settingsFromForm(form);
      if (typeof settings === "string") {
        return ctx.redirect("/admin/account?done=notify_invalid", 303);
      }
      await writePersonalNotifications(kv, principal, settings);
      return ctx.redirect("/admin/account?done=notify_saved", 303);
    }
    await writePreferences(kv, principal, { skipOwnActions: form.get("skipOwnActions") === "on" });
    return ctx.redirect("/admin/account?done=saved", 303);
  },
});

function LinkedList(
  props: { platform: "discord" | "telegram"; label: string; ids: string[]; csrf: string },
) {
  if (props.ids.length === 0) {
    return <p class={`text-sm ${MUTED}`}>No {props.label} account is linked.</p>;
  }
  return (
    <ul class="flex flex-col gap-2">
      {props.ids.map((id) => (
        <li key={id} class="flex flex-wrap items-center justify-between gap-2">
          <span class="text-sm">
            {props.label} user <code class="font-mono">{id}</code>
          </span>
          <form
            method="post"
            action="/admin/account"
            data-confirm={`Unlink ${props.label} user ${id}?`}
            data-confirm-detail="That chat account can no longer act on GitHub as you until it links again."
          >
            <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
            <input type="hidden" name="intent" value="unlink" />
            <input type="hidden" name="platform" value={props.platform} />
            <input type="hidden" name="chatUserId" value={id} />
            <button type="submit" class={DANGER_BUTTON}>Unlink</button>
          </form>
        </li>
      ))}
    </ul>
  );
}

/** The account page. */
export default define.page<typeof handler>(function AccountPage({ data, url }) {
  const { account, csrf } = data;
  const notice = NOTICES.get(url.searchParams.get("done") ?? "");
  return (
    <ConsoleLayout
      active="/admin/account"
      title="Your account"
      {...data.frame}
      groupPath="/admin"
      notice={notice}
    >
      <div class="flex max-w-3xl flex-col gap-6">
        <section class={`${CARD} p-4 sm:p-6`} aria-labelledby="linked-heading">
          <h2 id="linked-heading" class="text-lg font-semibold">Linked chat accounts</h2>
          <p class={`mt-1 mb-4 text-sm ${MUTED}`}>
            {account.github
              ? (
                <>
                  Chat accounts that act on GitHub as <strong>{account.login}</strong>{" "}
                  when they merge, close, comment or react from Discord or Telegram. Link one with
                  {" "}
                  <code>/gh link</code> in Discord or <code>/gh login</code>{" "}
                  in a private chat with the Telegram bot.
                </>
              )
              : "Sign in with GitHub to link chat accounts: DEBUG_MODE has no GitHub account."}
          </p>
          <div class="flex flex-col gap-4">
            <LinkedList platform="discord" label="Discord" ids={account.discord} csrf={csrf} />
            <LinkedList platform="telegram" label="Telegram" ids={account.telegram} csrf={csrf} />
          </div>
        </section>
        <section class={`${CARD} p-4 sm:p-6`} aria-labelledby="settings-heading">
          <h2 id="settings-heading" class="text-lg font-semibold">Notifications</h2>
          <form method="post" action="/admin/account" class="mt-3 flex flex-col gap-4">
            <input type="hidden" name={CSRF_FIELD} value={csrf} />
            <input type="hidden" name="intent" value="preferences" />
            <label class="flex items-start gap-3 text-sm">
              <input
                type="checkbox"
                name="skipOwnActions"
                class="mt-0.5 size-4 shrink-0 accent-indigo-600"
                checked={account.preferences.skipOwnActions}
                aria-describedby="skip-own-help"
              />
              <span>
                <span class="font-medium">Not my own</span>
                <span id="skip-own-help" class={`block ${MUTED}`}>
                  Do not send me, in my private chat with the Telegram bot, the GitHub events I
                  caused myself. Group chats and Discord channels still get every event.
                </span>
              </span>
            </label>
            <div class="flex gap-2">
              <button type="submit" class={PRIMARY_BUTTON}>Save</button>
              <a href="/admin/account" class={SECONDARY_BUTTON}>Cancel</a>
            </div>
          </form>
        </section>
        {data.personal && (
          <section class={`${CARD} p-4 sm:p-6`} aria-labelledby="personal-heading">
            <h2 id="personal-heading" class="text-lg font-semibold">Personal notifications</h2>
            <PersonalNotificationsForm settings={data.personal} csrf={csrf} />
          </section>
        )}
        <RemindersCard reminders={data.reminders} csrf={csrf} canEdit={account.github} />
      </div>
    </ConsoleLayout>
  );
});
