/** The built asset map (`_fresh/assets.json`), read once at start-up. */

/** Public URLs of the built files. */
export interface Assets {
  /** The hydration runtime, or null when assets were not built. */
  client: string | null;
  /** Island bundles by island name. */
  islands: Record<string, string>;
  /** Stylesheets by source name (`styles.css`). */
  styles: Record<string, string>;
}

/** The folder the build writes to, served at `/_fresh/`. */
export const BUILD_DIR = "_fresh";
/** The asset map's file name inside the build folder. */
export const ASSET_MAP_FILE = "assets.json";

/** An empty map: pages render without scripts or built styles. */
export const NO_ASSETS: Assets = { client: null, islands: {}, styles: {} };

/** Reads the asset map from the build folder under `root`; NO_ASSETS when absent. */
export async function loadAssets(root: string): Promise<Assets> {
  try {
    const text = await Deno.readTextFile(`${root}/${BUILD_DIR}/${ASSET_MAP_FILE}`);
    return JSON.parse(text) as Assets;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return NO_ASSETS;
    throw error;
  }
}
