import type { ComponentChildren } from "preact";
import ConfirmForms from "../islands/console/layout/ConfirmForms.tsx";
import Shortcuts from "../islands/console/layout/Shortcuts.tsx";
import ThemeToggle from "../islands/console/layout/ThemeToggle.tsx";
import Toaster from "../islands/console/layout/Toaster.tsx";
import { Head } from "../lib/fresh/runtime.ts";
import { GroupSwitcher } from "./layout/GroupSwitcher.tsx";
import type { Toast } from "./layout/toast.ts";
import { HEADER_BUTTON } from "./layout/ui.ts";

const TABS = [
  { href: "/admin", label: "Overview" },
  { href: "/admin/groups", label: "Groups" },
  { href: "/admin/routes", label: "Routes" },
  { href: "/admin/events", label: "Events" },
  { href: "/admin/logs", label: "Logs" },
  { href: "/admin/audit", label: "Audit" },
];

/** A tab's address; with a current group, `?group=` keeps it (its tab opens that group). */
function tabHref(href: string, group: string | undefined): string {
  return group === undefined ? href : `${href}?group=${encodeURIComponent(group)}`;
}

/** What a console page gives its frame. Only `active`, `title` and `children` are required. */
export interface ConsoleLayoutProps {
  /** The tab to mark as current (its path). */
  active: string;
  /** The page's heading; the document title is `<title> · Switchyard`. */
  title: string;
  children: ComponentChildren;
  /** The signed-in person, shown in the header. */
  user?: { login: string; superAdmin?: boolean; debug?: boolean };
  /** The person's groups, for the group switcher (none: no switcher). */
  groups?: readonly { id: string; name: string }[];
  /** The group the page shows, selected in the switcher. */
  currentGroup?: string;
  /** Where the switcher goes, with `?group=<id>` (default: `active`). */
  groupPath?: string;
  /** A result to show in the status region when the page loads (after a form POST). */
  notice?: Toast;
  /** Controls shown beside the heading (a page's main action). */
  actions?: ComponentChildren;
}

function UserBadge(props: { user: NonNullable<ConsoleLayoutProps["user"]> }) {
  const { user } = props;
  return (
    <span class="flex min-w-0 items-center gap-1.5 text-sm">
      <span class="sr-only">Signed in as</span>
      <a
        href="/admin/account"
        class="max-w-32 truncate font-medium underline-offset-2 hover:underline"
        title={`${user.login}: your account`}
      >
        {user.login}
      </a>
      {user.debug
        ? (
          <a
            href="/admin/debug-person"
            title="DEBUG_MODE: act as another person"
            class="shrink-0 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 hover:underline dark:bg-amber-900 dark:text-amber-100"
          >
            DEBUG_MODE
          </a>
        )
        : user.superAdmin && (
          <span class="hidden shrink-0 rounded bg-indigo-50 px-1.5 py-0.5 text-xs font-medium text-indigo-800 sm:inline dark:bg-indigo-950 dark:text-indigo-200">
            super admin
          </span>
        )}
    </span>
  );
}

/**
 * The console's frame: the page title, a skip link, the header (product name, the group
 * switcher, the dark mode toggle, the signed-in person and sign-out, then the tabs, which
 * scroll sideways when they do not fit), the page body, the shared status region for toasts,
 * confirmation for forms marked `data-confirm`, and the keyboard shortcuts.
 */
export function ConsoleLayout(props: ConsoleLayoutProps) {
  const { user, groups } = props;
  return (
    <div class="flex min-h-screen flex-col">
      <Head>
        <title>{`${props.title} · Switchyard`}</title>
      </Head>
      <a
        href="#main"
        class="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow dark:focus:bg-slate-800"
      >
        Skip to content
      </a>
      <header class="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div class="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 pt-2.5 sm:px-6">
          <a href="/admin" class="flex shrink-0 items-center gap-2 font-semibold">
            <img src="/favicon.svg" alt="" width={24} height={24} />
            Switchyard
          </a>
          {groups && groups.length > 0 && (
            <div class="order-last w-full md:order-none md:w-auto">
              <GroupSwitcher
                path={props.groupPath ?? props.active}
                groups={groups}
                current={props.currentGroup}
              />
            </div>
          )}
          <div class="ml-auto flex min-w-0 items-center gap-1 sm:gap-2">
            <ThemeToggle />
            {user && <UserBadge user={user} />}
            {!user?.debug && (
              <a href="/admin/logout" class={HEADER_BUTTON}>
                Sign out
              </a>
            )}
          </div>
        </div>
        <nav aria-label="Console" class="mx-auto max-w-6xl overflow-x-auto px-1 sm:px-3">
          <ul class="flex gap-0.5 sm:gap-1">
            {TABS.map((tab) => (
              <li key={tab.href} class="shrink-0">
                <a
                  href={tabHref(tab.href, props.currentGroup)}
                  aria-current={tab.href === props.active ? "page" : undefined}
                  class={tab.href === props.active
                    ? "block border-b-2 border-indigo-600 px-1.5 py-2.5 sm:px-3 text-sm font-medium text-indigo-700 dark:border-indigo-400 dark:text-indigo-300"
                    : "block border-b-2 border-transparent px-1.5 py-2.5 sm:px-3 text-sm font-medium text-slate-600 hover:border-slate-300 hover:text-slate-900 dark:text-slate-300 dark:hover:border-slate-600 dark:hover:text-white"}
                >
                  {tab.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main
        id="main"
        tabIndex={-1}
        class="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:px-6 sm:py-8"
      >
        <div class="mb-6 flex flex-wrap items-center justify-between gap-3">
          <h1 class="text-2xl font-semibold">{props.title}</h1>
          {props.actions && <div class="flex flex-wrap items-center gap-2">{props.actions}</div>}
        </div>
        {props.children}
      </main>
      <footer class="mx-auto w-full max-w-6xl px-4 pb-6 sm:px-6">
        <Shortcuts />
      </footer>
      <Toaster initial={props.notice} />
      <ConfirmForms />
    </div>
  );
}
