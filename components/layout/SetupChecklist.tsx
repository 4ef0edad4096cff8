import type { SetupProgress } from "../../lib/admin/console_frame.ts";
import { CARD, MUTED } from "./ui.ts";

interface Step {
  done: keyof SetupProgress;
  title: string;
  detail: string;
  href: string;
  link: string;
}

/** The first-run path, in order. */
const STEPS: readonly Step[] = [
  {
    done: "group",
    title: "Create a group",
    detail: "A group holds the routes and the webhook of one team or project.",
    href: "/admin/groups",
    link: "Open Groups",
  },
  {
    done: "webhook",
    title: "Copy its webhook URL and secret",
    detail: "Paste both into the repository's webhook settings (content type application/json).",
    href: "/admin/groups",
    link: "Open Groups",
  },
  {
    done: "route",
    title: "Add a route",
    detail: "Pick the events to send, with a filter, and the Discord channel or Telegram chat.",
    href: "/admin/routes",
    link: "Open Routes",
  },
  {
    done: "delivery",
    title: "Send a test event",
    detail: "Send a signed event (the README's quickstart has a curl); Events shows which routes " +
      "it fired and why, Logs what was sent.",
    href: "/admin/events",
    link: "Open Events",
  },
];

/** The overview's first-run checklist: each step links to where it is done and ticks when it is. */
export function SetupChecklist(props: { progress: SetupProgress }) {
  const done = STEPS.filter((step) => props.progress[step.done]).length;
  return (
    <section aria-labelledby="setup-title" class={CARD} data-testid="setup-checklist">
      <div class="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="setup-title" class="text-lg font-semibold">Get started</h2>
        <p class={`text-sm ${MUTED}`}>{done} of {STEPS.length} done</p>
      </div>
      <ol class="mt-4 flex flex-col gap-3">
        {STEPS.map((step, index) => {
          const complete = props.progress[step.done];
          return (
            <li key={step.done} class="flex gap-3" data-done={complete ? "true" : "false"}>
              <span
                aria-hidden="true"
                class={complete
                  ? "mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-xs font-bold text-white"
                  : "mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full border border-slate-300 text-xs font-semibold text-slate-600 dark:border-slate-600 dark:text-slate-300"}
              >
                {complete ? "✓" : index + 1}
              </span>
              <div class="min-w-0">
                <p class="font-medium">
                  {step.title}
                  <span class="sr-only">{complete ? " (done)" : " (to do)"}</span>
                </p>
                <p class={`text-sm ${MUTED}`}>
                  {step.detail} {!complete && (
                    <a
                      href={step.href}
                      class="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
                    >
                      {step.link}
                    </a>
                  )}
                </p>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
