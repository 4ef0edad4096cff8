import type { ComponentChildren } from "preact";
import { CARD, CARD_TITLE, MUTED } from "./ui.ts";

const CODE = "rounded bg-slate-100 px-1 py-0.5 font-mono text-xs break-all dark:bg-slate-800";

function Field(props: { name: string; children: ComponentChildren }) {
  return (
    <li>
      <span class="font-medium">{props.name}:</span> {props.children}
    </li>
  );
}

/** How to point GitHub and Gitea (or Forgejo) at a group's webhook address. */
export function WebhookSetup(props: { url: string }) {
  const url = <code class={CODE}>{props.url}</code>;
  const form = <code class={CODE}>application/x-www-form-urlencoded</code>;
  const plain = <code class={CODE}>application/json</code>;
  const json = <>{plain} (or {form})</>;
  return (
    <section class={CARD} aria-labelledby="setup-title">
      <h2 id="setup-title" class={CARD_TITLE}>Connect a repository</h2>
      <p class={`mt-1 ${MUTED}`}>
        Add a webhook in the repository's (or organization's) settings with these values. The secret
        is the one generated above; only its HMAC signature travels with each event.
      </p>
      <div class="mt-4 grid gap-6 md:grid-cols-2">
        <div>
          <h3 class="font-semibold">GitHub</h3>
          <p class={`mt-1 ${MUTED}`}>Settings → Webhooks → Add webhook</p>
          <ul class="mt-2 flex list-disc flex-col gap-1 pl-5 text-sm">
            <Field name="Payload URL">{url}</Field>
            <Field name="Content type">{json}</Field>
            <Field name="Secret">the group's secret</Field>
            <Field name="Which events">
              "Send me everything", or "Let me select individual events" and tick Pull requests,
              Issues, Pushes and Workflow runs
            </Field>
            <Field name="Active">ticked; GitHub then sends a ping, which is acknowledged</Field>
          </ul>
        </div>
        <div>
          <h3 class="font-semibold">Gitea or Forgejo</h3>
          <p class={`mt-1 ${MUTED}`}>Settings → Webhooks → Add webhook → Gitea (or Forgejo)</p>
          <ul class="mt-2 flex list-disc flex-col gap-1 pl-5 text-sm">
            <Field name="Target URL">{url}</Field>
            <Field name="HTTP method">POST</Field>
            <Field name="POST content type">{json}</Field>
            <Field name="Secret">the group's secret</Field>
            <Field name="Trigger on">
              "All events", or "Custom events" and tick Push, Pull request, Issues and Workflow run
            </Field>
          </ul>
        </div>
      </div>
    </section>
  );
}
