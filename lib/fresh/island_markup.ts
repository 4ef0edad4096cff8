/** How server-rendered pages mark islands for the browser (shared by `render.ts` and `client.ts`). */

/** The custom element around an island's server-rendered root (`data-island`, `data-id`). */
export const ISLAND_TAG = "sy-island";

/** The id of the JSON script element that tells the browser what to hydrate. */
export const ISLAND_DATA_ID = "__ISLANDS";

/** The content of the JSON element: module URLs by island name, and props by island root id. */
export interface IslandData {
  modules: Record<string, string>;
  props: unknown[];
}
