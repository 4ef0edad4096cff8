/**
 * The browser side of islands: hydrates every marked island root with its
 * serialized props. Roots nested inside another island are part of that
 * island's tree and are not hydrated again.
 */
import { type ComponentType, h, hydrate } from "preact";

const ISLAND_TAG = "sy-island";
const ISLAND_PROPS_ID = "__ISLAND_PROPS";

/** Hydrates the islands on the page, given their components by name. */
// deno-lint-ignore no-explicit-any
export function boot(islands: Record<string, ComponentType<any>>): void {
  const text = document.getElementById(ISLAND_PROPS_ID)?.textContent ?? "[]";
  const props = JSON.parse(text) as Record<string, unknown>[];
  for (const root of document.querySelectorAll<HTMLElement>(ISLAND_TAG)) {
    if (root.parentElement?.closest(ISLAND_TAG)) continue;
    const component = islands[root.dataset.island ?? ""];
    if (component) hydrate(h(component, props[Number(root.dataset.id)]), root);
  }
}
