/**
 * The browser side of islands, loaded as a module by pages that have any:
 * reads the page's island data (module URLs and props), imports the island
 * modules and hydrates every marked island root. Roots nested inside another
 * island are part of that island's tree and are not hydrated again. No inline
 * script is involved, so pages run under `script-src 'self'`.
 */
import { type ComponentType, h, hydrate } from "preact";
import { ISLAND_DATA_ID, ISLAND_TAG, type IslandData } from "./island_markup.ts";

// deno-lint-ignore no-explicit-any
type AnyComponent = ComponentType<any>;

async function boot(): Promise<void> {
  const text = document.getElementById(ISLAND_DATA_ID)?.textContent;
  if (!text) return;
  const { modules, props } = JSON.parse(text) as IslandData;
  const components = new Map<string, AnyComponent>(
    await Promise.all(
      Object.entries(modules).map(async ([name, url]) =>
        [name, (await import(url)).default as AnyComponent] as const
      ),
    ),
  );
  for (const root of document.querySelectorAll<HTMLElement>(ISLAND_TAG)) {
    if (root.parentElement?.closest(ISLAND_TAG)) continue;
    const component = components.get(root.dataset.island ?? "");
    if (component) hydrate(h(component, props[Number(root.dataset.id)] as object), root);
  }
}

await boot();
