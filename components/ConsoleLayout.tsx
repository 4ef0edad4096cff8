import type { ComponentChildren } from "preact";

const TABS = [
  { href: "/admin", label: "Overview" },
  { href: "/admin/groups", label: "Groups" },
  { href: "/admin/routes", label: "Routes" },
  { href: "/admin/logs", label: "Logs" },
  { href: "/admin/audit", label: "Audit" },
];

/**
 * The console's frame: the product name, the tab navigation, the sign-out
 * control (it leads to the confirmation form, which POSTs with the CSRF token)
 * and the page body.
 */
export function ConsoleLayout(
  props: { active: string; title: string; children: ComponentChildren },
) {
  return (
    <div class="min-h-screen">
      <header class="border-b border-slate-200 bg-white">
        <div class="mx-auto flex max-w-6xl items-center gap-8 px-6 py-3">
          <a href="/admin" class="flex items-center gap-2 font-semibold">
            <img src="/favicon.svg" alt="" width={24} height={24} />
            Switchyard
          </a>
          <nav aria-label="Console" class="flex gap-1">
            {TABS.map((tab) => (
              <a
                key={tab.href}
                href={tab.href}
                aria-current={tab.href === props.active ? "page" : undefined}
                class={tab.href === props.active
                  ? "rounded-md bg-indigo-50 px-3 py-1.5 text-sm font-medium text-indigo-700"
                  : "rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100"}
              >
                {tab.label}
              </a>
            ))}
          </nav>
          <a
            href="/admin/logout"
            class="ml-auto rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100"
          >
            Sign out
          </a>
        </div>
      </header>
      <main class="mx-auto max-w-6xl px-6 py-8">
        <h1 class="mb-6 text-2xl font-semibold">{props.title}</h1>
        {props.children}
      </main>
    </div>
  );
}
